extension UTType {
  /// The preferred type for a filename extension, or a dynamic type when none is declared.
  ///
  /// ```swift
  /// UTType(filenameExtension: "jpg")                          // public.jpeg
  /// UTType(filenameExtension: "mp4", conformingTo: .audio)    // public.mpeg-4-audio
  /// UTType(filenameExtension: "turtle")                       // dyn.ah62d4rv4ge81k7pwsv0gn
  /// ```
  ///
  /// - Parameters:
  ///   - filenameExtension: The extension, without a leading dot.
  ///   - supertype: A type the result must conform to.
  /// - Returns: `nil` only for an empty extension.
  public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
    self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
  }

  /// The preferred type for a MIME type, or a dynamic type when none is declared.
  ///
  /// ```swift
  /// UTType(mimeType: "image/png")            // public.png
  /// UTType(mimeType: "text/plain; charset=UTF-8")   // public.utf8-plain-text
  /// ```
  ///
  /// - Parameters:
  ///   - mimeType: The MIME type; case and blanks around parameters do not matter.
  ///   - supertype: A type the result must conform to.
  /// - Returns: `nil` only for an empty MIME type.
  public init?(mimeType: String, conformingTo supertype: UTType = .data) {
    self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
  }

  /// The preferred type for a tag, or a dynamic type carrying the tag when no declared type
  /// does.
  ///
  /// When several types carry the tag, the winner is decided in this order: system types,
  /// then exported, then imported declarations, then the MIME database; within one of these,
  /// the type whose preferred tag it is, then the heavier MIME-database glob, then the more
  /// specific type, then the earlier declaration.
  ///
  /// ```swift
  /// UTType(tag: "UTF8_STRING", tagClass: .x11Target, conformingTo: nil)   // public.utf8-plain-text
  /// ```
  ///
  /// - Parameters:
  ///   - tag: The tag.
  ///   - tagClass: The tag's class.
  ///   - supertype: A type the result must conform to, or `nil` for any.
  /// - Returns: `nil` only for an empty tag.
  public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
    guard Self.isUsableTag(tag) else { return nil }
    let filter = TypeRegistry.Supertype.conforming(to: supertype)
    let registry = TypeRegistry.shared
    if let record = registry.preferredRecord(tag: tag, tagClass: tagClass, conformingTo: filter) {
      self.init(record: record)
    } else if tagClass == .x11Target, Self.isMIMETypeShaped(tag) {
      // An X target with a slash is a MIME type by convention (Qt, GTK and browsers offer
      // `application/x-…` as is): the same dynamic type as `UTType(mimeType:)` gives, so a
      // reader naming the MIME type finds what an X owner offered under it.
      self.init(dynamicTag: tag, tagClass: .mimeType, conformingTo: supertype ?? .data)
    } else {
      self.init(dynamicTag: tag, tagClass: tagClass, conformingTo: supertype)
    }
  }

  /// Whether `tag` has a MIME type's shape: `type/subtype`, each part a token.
  static func isMIMETypeShaped(_ tag: String) -> Bool {
    let parts = tag.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty
        && part.unicodeScalars.allSatisfy {
          $0.isASCII && $0.value > 0x20 && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains($0)
        }
    }
  }

  /// Every declared type carrying a tag, preferred first; a dynamic type when none does.
  ///
  /// ```swift
  /// UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil)
  /// // [public.mpeg-4, public.mpeg-4-audio, …]
  /// ```
  ///
  /// - Parameters:
  ///   - tag: The tag.
  ///   - tagClass: The tag's class.
  ///   - supertype: A type the results must conform to, or `nil` for any.
  /// - Returns: The types, or an empty array for an empty tag.
  public static func types(
    tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?
  ) -> [UTType] {
    guard isUsableTag(tag) else { return [] }
    let records = TypeRegistry.shared.allRecords(
      tag: tag, tagClass: tagClass, conformingTo: supertype?.key)
    if records.isEmpty {
      return [UTType(dynamicTag: tag, tagClass: tagClass, conformingTo: supertype)]
    }
    return records.map(UTType.init(record:))
  }

  /// Whether a tag names anything: not empty, and not a lone dot.
  private static func isUsableTag(_ tag: String) -> Bool {
    let bytes = tag.utf8
    guard let first = bytes.first else { return false }
    return !(first == UInt8(ascii: ".") && bytes.count == 1)
  }

  private init(dynamicTag tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
    let bare =
      tagClass == .filenameExtension && tag.utf8.first == UInt8(ascii: ".")
      ? String(tag.dropFirst()) : tag
    self.init(
      dynamicIdentifier: DynamicIdentifier.encode(
        tag: bare, tagClass: tagClass, conformingTo: supertype?.identifier))
  }
}
