/// One declaration of a type: what a system table, a declaration file, a line of Swift code or
/// the MIME database says about an identifier.
package struct TypeDeclaration: Sendable {
  /// The identifier as declared (its spelling is kept; comparisons ignore case).
  package var identifier: String
  /// The identifiers of the direct parents.
  package var conformsTo: [String]
  /// Tags by class, preferred tag first.
  package var tags: [UTTagClass: [String]]
  /// The English description.
  package var description: String?
  /// The URL of the format's specification (`UTTypeReferenceURL`).
  package var referenceURL: String?
  /// The declaration's version (`UTTypeVersion`).
  package var version: Int?
  /// The MIME type whose database entry holds localized comments for this type, if any.
  package var mimeCommentSource: String?

  package init(
    identifier: String,
    conformsTo: [String] = [],
    tags: [UTTagClass: [String]] = [:],
    description: String? = nil,
    referenceURL: String? = nil,
    version: Int? = nil,
    mimeCommentSource: String? = nil
  ) {
    self.identifier = identifier
    self.conformsTo = conformsTo
    self.tags = tags
    self.description = description
    self.referenceURL = referenceURL
    self.version = version
    self.mimeCommentSource = mimeCommentSource
  }

  /// A row of the system tables.
  static func system(
    _ identifier: String,
    conformsTo: [String],
    extensions: [String],
    mimeTypes: [String],
    x11Targets: [String] = [],
    description: String
  ) -> TypeDeclaration {
    var tags: [UTTagClass: [String]] = [:]
    if !extensions.isEmpty { tags[.filenameExtension] = extensions }
    if !mimeTypes.isEmpty { tags[.mimeType] = mimeTypes }
    if !x11Targets.isEmpty { tags[.x11Target] = x11Targets }
    return TypeDeclaration(
      identifier: identifier, conformsTo: conformsTo, tags: tags, description: description)
  }
}

/// Where a declaration came from. When two declarations name the same identifier, or claim the
/// same tag, the lower layer wins.
package enum DeclarationLayer: Int, Comparable, Sendable {
  /// Apple's system types and Ferry's built-in X11 and desktop types.
  case system
  /// An exported declaration in a file (`UTExportedTypeDeclarations`).
  case exportedFile
  /// An imported declaration in a file (`UTImportedTypeDeclarations`).
  case importedFile
  /// `UTType(exportedAs:conformingTo:)` in Swift code. Below every file: on Apple's systems
  /// the call declares nothing, it finds the declaration an Info.plist makes, and a
  /// declaration file is that Info.plist here. Code stands in only where no file declares
  /// the type.
  case exportedCode
  /// `UTType(importedAs:conformingTo:)` in Swift code.
  case importedCode
  /// The freedesktop shared-mime-info database.
  case mimeDatabase
  /// A synthesized `dyn.` type.
  case dynamic

  package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Whether a declaration in this layer is authoritative for its identifier.
  var isExported: Bool { self == .system || self == .exportedFile || self == .exportedCode }
}
