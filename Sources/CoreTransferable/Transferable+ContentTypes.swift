import UniformTypeIdentifiers

extension Transferable {
  /// The content types the type can export, in order, that `visibility` may see.
  ///
  /// Exporting conditions are not evaluated: the list is the type's, not a value's. A content
  /// type appears once, at its first position.
  ///
  /// ```swift
  /// Profile.exportedContentTypes()
  /// // [com.example.profile, public.utf8-plain-text, public.plain-text]
  /// ```
  ///
  /// - Parameter visibility: The audience: `.all` (the default) lists only representations
  ///   visible to every process; `.ownProcess` lists every representation.
  /// - Returns: The content types, most preferred first.
  public static func exportedContentTypes(visibility: TransferRepresentationVisibility = .all)
    -> [UTType]
  {
    unique(
      representationEntries.lazy.filter { entry in
        entry.exporter != nil && (entry.visibility ?? .all).isVisible(to: visibility)
      }.map(\.contentType))
  }

  /// The content types this value can export, in order, that `visibility` may see.
  ///
  /// Exporting conditions are evaluated for this value, and so are synchronous proxy
  /// exporters (a proxy's own conditions apply to the proxy value).
  ///
  /// ```swift
  /// ProfilesArchive(profiles: [], supportsCSV: false).exportedContentTypes()   // []
  /// ```
  ///
  /// - Parameter visibility: The audience, as in
  ///   ``exportedContentTypes(visibility:)``.
  /// - Returns: The content types, most preferred first.
  public func exportedContentTypes(_ visibility: TransferRepresentationVisibility = .all)
    -> [UTType]
  {
    transferExports(visibleTo: visibility).map(\.contentType)
  }

  /// The content types the type can import, in order.
  ///
  /// ```swift
  /// String.importedContentTypes()   // [public.utf8-plain-text, public.plain-text]
  /// ```
  ///
  /// - Returns: The content types, most preferred first.
  public static func importedContentTypes() -> [UTType] {
    unique(representationEntries.lazy.filter { $0.importer != nil }.map(\.contentType))
  }

  /// The content types the value's type can import, in order.
  ///
  /// ```swift
  /// "Juan".importedContentTypes()   // [public.utf8-plain-text, public.plain-text]
  /// ```
  ///
  /// - Returns: The content types, most preferred first.
  public func importedContentTypes() -> [UTType] {
    Self.importedContentTypes()
  }

  private static func unique(_ types: some Sequence<UTType>) -> [UTType] {
    var seen = Set<UTType>()
    return types.filter { seen.insert($0).inserted }
  }
}
