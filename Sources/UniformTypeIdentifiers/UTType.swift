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
/// UTType(mimeType: "application/x-foo")!.identifier   // "dyn.ah62d4rv4gq81k3p2su1zuppgsm10esvvhzxhe55c"
/// ```
///
/// The types come from Apple's system declarations (every named constant, with Apple's
/// identifiers, conformances and tags), Ferry's X11 and desktop types, declaration files in the
/// XDG data directories, declarations made in code with ``init(exportedAs:conformingTo:)``
/// and ``init(importedAs:conformingTo:)``, and the freedesktop shared-mime-info database.
/// Unknown tags get dynamic `dyn.` types, with Apple's encoding. The MIME database and the
/// declaration files are read only when a lookup needs them.
public struct UTType: Sendable {
  /// The type's identifier, such as `public.jpeg`.
  public let identifier: String
  /// The lowercased identifier: equality and hashing use it.
  let key: String

  /// A type of the system table, by an identifier known to be lowercase.
  init(_system identifier: String) {
    self.identifier = identifier
    self.key = TypeIdentifier.key(identifier)
  }

  /// A type whose record is already resolved.
  init(record: TypeRecord) {
    self.identifier = record.identifier
    self.key = record.key
  }

  /// A type for an identifier, whether or not anything declares it.
  init(uncheckedIdentifier identifier: String) {
    self.identifier = identifier
    self.key = TypeIdentifier.key(identifier)
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

  var record: TypeRecord? { TypeRegistry.shared.record(forKey: key) }
}

extension UTType: Hashable {
  /// Whether two types have the same identifier, ignoring case.
  public static func == (lhs: UTType, rhs: UTType) -> Bool { lhs.key == rhs.key }

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
