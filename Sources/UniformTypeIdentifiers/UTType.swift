/// A type of data: a file format, a pasteboard representation, an X11 selection target.
///
/// A type is named by an identifier, a reverse-DNS string compared without case
/// (`public.jpeg`). It conforms to other types — several at once — and carries tags that name
/// it elsewhere: filename extensions, MIME types, X11 targets.
///
/// ```swift
/// let type = UTType(filenameExtension: "jpg")!        // public.jpeg
/// type.conforms(to: .image)                           // true
/// type.preferredMIMEType                              // "image/jpeg"
/// UTType(mimeType: "application/x-foo")!.identifier   // "dyn.ah62d4rv4gq80c6durvy0g2pyrf106p52fzxg852"
/// ```
///
/// The types come from Apple's system declarations (every named constant, with Apple's
/// identifiers, conformances and tags), Ferry's X11 and desktop types, declaration files in the
/// XDG data directories, declarations made in code with ``init(exportedAs:conformingTo:)``
/// and ``init(importedAs:conformingTo:)``, and the freedesktop shared-mime-info database.
/// Unknown tags get dynamic `dyn.` types, with Apple's encoding. The MIME database and the
/// declaration files are read only when a lookup needs them.
public struct UTType: Sendable {
  /// A system type's row in the system table, or the name of any other type: eight bytes
  /// either way, and a copy of a system type (the constants, most lookups' results) needs no
  /// reference counting. System types never change, so a value may keep its row; every other
  /// type is resolved when asked, so that later declarations take effect.
  let storage: Storage

  enum Storage: Sendable {
    /// A row of `SystemTypeTable.records`.
    case system(UInt16)
    case name(TypeName)
  }

  /// The name of a type that is not a system type.
  final class TypeName: Sendable {
    let identifier: String
    let key: String

    init(identifier: String, key: String) {
      self.identifier = identifier
      self.key = key
    }
  }

  /// The type's identifier, such as `public.jpeg`.
  public var identifier: String {
    switch storage {
    case .system(let row): SystemTypeTable.records[Int(row)].identifier
    case .name(let name): name.identifier
    }
  }

  /// The lowercased identifier: equality and hashing use it.
  var key: String {
    switch storage {
    case .system(let row): SystemTypeTable.records[Int(row)].key
    case .name(let name): name.key
    }
  }

  /// The record of a system type.
  var systemRecord: TypeRecord? {
    systemRow.map { SystemTypeTable.records[$0] }
  }

  /// The row of a system type in the system table.
  var systemRow: Int? {
    if case .system(let row) = storage { return Int(row) }
    return nil
  }

  /// A type of the system table.
  init(_system identifier: String) {
    self.init(uncheckedIdentifier: identifier)
  }

  /// A type whose record is already resolved.
  init(record: TypeRecord) {
    storage = record.typeName.map(Storage.name) ?? .system(UInt16(record.systemIndex))
  }

  /// A dynamic type, from an identifier `DynamicIdentifier.encode` made: in lowercase already,
  /// and never a system type's.
  init(dynamicIdentifier identifier: String) {
    assert(identifier.hasPrefix(DynamicIdentifier.prefix))
    assert(identifier == TypeIdentifier.key(identifier))
    storage = .name(TypeName(identifier: identifier, key: identifier))
  }

  /// A type for an identifier, whether or not anything declares it.
  init(uncheckedIdentifier identifier: String) {
    let key = TypeIdentifier.key(identifier)
    if let record = SystemTypeTable.catalog.records[key] {
      storage = .system(UInt16(record.systemIndex))
    } else {
      storage = .name(TypeName(identifier: identifier, key: key))
    }
  }

  /// Looks up the type with an identifier.
  ///
  /// Returns `nil` when no declaration names the identifier. A `dyn.` identifier decodes into
  /// its dynamic type.
  ///
  /// ```swift
  /// UTType("public.png") == .png           // true
  /// UTType("PUBLIC.PNG") == .png           // true: identifiers ignore case
  /// UTType("dyn.ah62d4rv4ge81k7pwsv0gn")?.preferredFilenameExtension   // "turtle"
  /// ```
  ///
  /// - Parameter identifier: The type's identifier.
  public init?(_ identifier: String) {
    guard let record = TypeRegistry.shared.record(forKey: TypeIdentifier.key(identifier)) else {
      return nil
    }
    self.init(record: record)
  }

  /// Looks up the type with an identifier, or, when `allowUndeclared` is `true`, keeps the
  /// identifier of a type nobody declares.
  ///
  /// An undeclared type made this way is neither declared nor dynamic and conforms to nothing
  /// but itself until something declares it; it is what decoding a `UTType` gives. (New in
  /// Apple's iOS and macOS 27 SDKs.)
  ///
  /// ```swift
  /// UTType(identifier: "org.example.unknown", allowUndeclared: false)   // nil
  /// UTType(identifier: "org.example.unknown", allowUndeclared: true)?.isDeclared   // false
  /// UTType(identifier: "not an identifier", allowUndeclared: true)     // nil
  /// ```
  ///
  /// - Parameters:
  ///   - identifier: The type's identifier.
  ///   - allowUndeclared: Whether to return a type for an identifier nobody declares.
  /// - Returns: `nil` when `identifier` is not a well-formed type identifier, or is undeclared
  ///   and `allowUndeclared` is `false`.
  public init?(identifier: String, allowUndeclared: Bool) {
    if let declared = UTType(identifier) {
      self = declared
      return
    }
    guard allowUndeclared, TypeIdentifier.isValid(identifier) else { return nil }
    self.init(uncheckedIdentifier: identifier)
  }

  var record: TypeRecord? { systemRecord ?? TypeRegistry.shared.record(forKey: key) }
}

extension UTType: Hashable {
  /// Whether two types have the same identifier, ignoring case.
  public static func == (lhs: UTType, rhs: UTType) -> Bool {
    if case .system(let left) = lhs.storage, case .system(let right) = rhs.storage {
      return left == right
    }
    return lhs.key == rhs.key
  }

  /// Hashes the identifier, ignoring case.
  public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

extension UTType: CustomStringConvertible, CustomDebugStringConvertible {
  /// The identifier.
  public var description: String { identifier }

  /// The identifier and, when there is one, the description.
  public var debugDescription: String {
    if let text = localizedDescription { return "\(identifier) (\(text))" }
    return identifier
  }
}
