import FoundationEssentials

extension UTType {
  /// The preferred filename extension, without a dot: the first of ``tags`` for
  /// ``UTTagClass/filenameExtension``.
  ///
  /// ```swift
  /// UTType.jpeg.preferredFilenameExtension   // "jpeg"
  /// ```
  public var preferredFilenameExtension: String? { preferredTag(.filenameExtension) }

  /// The preferred MIME type: the first of ``tags`` for ``UTTagClass/mimeType``.
  ///
  /// ```swift
  /// UTType.png.preferredMIMEType   // "image/png"
  /// ```
  public var preferredMIMEType: String? { preferredTag(.mimeType) }

  private func preferredTag(_ tagClass: UTTagClass) -> String? {
    guard let record else { return nil }
    if let first = record.tags[tagClass]?.first { return first }
    guard record.layer == .system else { return nil }
    return TypeRegistry.shared.tags(ofKey: key, includingMIMEDatabase: true)[tagClass]?.first
  }

  /// The type's tags by class, preferred first, including those the MIME database adds.
  ///
  /// ```swift
  /// UTType.plainText.tags[.filenameExtension]   // ["txt", "text", …]
  /// ```
  public var tags: [UTTagClass: [String]] {
    TypeRegistry.shared.tags(ofKey: key, includingMIMEDatabase: true)
  }

  /// A description for people, in the language of `LC_ALL`, `LC_MESSAGES` or `LANG` when the
  /// MIME database has it, in English otherwise; `nil` for dynamic and undeclared types.
  ///
  /// ```swift
  /// UTType.png.localizedDescription   // "PNG image" (or "PNG-Bild" with LANG=de_DE.UTF-8)
  /// ```
  public var localizedDescription: String? {
    guard let record, record.layer != .dynamic else { return nil }
    let english = record.description
    let wantsTranslation = !Environment.messageLanguages.isEmpty
    if english != nil && !wantsTranslation { return english }
    guard let source = TypeRegistry.shared.commentSource(ofKey: key) else { return english }
    let comment = MIMEComments.shared.comment(for: source)
    guard let english else { return comment.localized }
    // A system type takes the database's translation only where the database describes the
    // same thing: application/octet-stream, for one, is "unknown" there and "data" here.
    let sameMeaning = comment.english.map { $0.lowercased() == english.lowercased() } ?? false
    return sameMeaning ? (comment.localized ?? english) : english
  }

  /// The URL of the format's specification, from a declaration's `UTTypeReferenceURL`.
  public var referenceURL: URL? {
    record?.referenceURL.flatMap { URL(string: $0) }
  }

  /// The declaration's version, from `UTTypeVersion`.
  public var version: Int? { record?.version }

  /// Every type this type conforms to, directly or not, excluding itself.
  ///
  /// ```swift
  /// UTType.jpeg.supertypes.contains(.data)   // true
  /// ```
  public var supertypes: Set<UTType> {
    guard let record else { return [] }
    return Set(
      record.ancestorKeys.map { key in
        TypeRegistry.shared.record(forKey: key).map(UTType.init(record:))
          ?? UTType(uncheckedIdentifier: key)
      })
  }

  /// Whether a declaration — system, file, code or the MIME database — names this type.
  public var isDeclared: Bool {
    guard let record else { return false }
    return record.layer != .dynamic
  }

  /// Whether this type was synthesized for an unknown tag (a `dyn.` identifier).
  public var isDynamic: Bool { key.hasPrefix(DynamicIdentifier.prefix) }

  /// Whether the identifier is in the `public` domain.
  public var isPublic: Bool { key.hasPrefix("public.") }
}
