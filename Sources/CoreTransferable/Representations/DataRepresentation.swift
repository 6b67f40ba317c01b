import FoundationEssentials
import UniformTypeIdentifiers

/// A representation that converts a value to and from bytes in memory.
///
/// Use it for formats whose bytes you produce or parse yourself: an image's PNG, a document's
/// CSV. The exporter and the importer run only when a receiver asks for this content type.
///
/// ```swift
/// extension ProfilesArchive: Transferable {
///   static var transferRepresentation: some TransferRepresentation {
///     DataRepresentation(contentType: .commaSeparatedText) { archive in
///       try archive.convertToCSV()
///     } importing: { data in
///       try ProfilesArchive(csvData: data)
///     }
///   }
/// }
/// ```
///
/// For payloads too large to hold in memory, use ``FileRepresentation``.
public struct DataRepresentation<Item: Transferable>: TransferRepresentation {
  let contentType: UTType
  let exporter: (@Sendable (Item) async throws -> Data)?
  let importer: (@Sendable (Data) async throws -> Item)?

  /// A representation that exports and imports bytes of `contentType`.
  ///
  /// ```swift
  /// DataRepresentation(contentType: .layer) { layer in
  ///   layer.data()
  /// } importing: { data in
  ///   try ImageDocumentLayer(data: data)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - contentType: The type of the bytes.
  ///   - exporting: Produces the bytes of a value.
  ///   - importing: Makes a value from bytes; throw when they are malformed.
  public init(
    contentType: UTType,
    exporting: @escaping @Sendable (Item) async throws -> Data,
    importing: @escaping @Sendable (Data) async throws -> Item
  ) {
    self.contentType = contentType
    self.exporter = exporting
    self.importer = importing
  }

  /// A representation that only exports bytes of `exportedContentType`.
  ///
  /// ```swift
  /// DataRepresentation(exportedContentType: .png) { layer in
  ///   layer.pngData()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - exportedContentType: The type of the bytes.
  ///   - exporting: Produces the bytes of a value.
  public init(
    exportedContentType: UTType,
    exporting: @escaping @Sendable (Item) async throws -> Data
  ) {
    self.contentType = exportedContentType
    self.exporter = exporting
    self.importer = nil
  }

  /// A representation that only imports bytes of `importedContentType`.
  ///
  /// ```swift
  /// DataRepresentation(importedContentType: .commaSeparatedText) { data in
  ///   try ProfilesArchive(csvData: data)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - importedContentType: The type of the bytes.
  ///   - importing: Makes a value from bytes; throw when they are malformed.
  public init(
    importedContentType: UTType,
    importing: @escaping @Sendable (Data) async throws -> Item
  ) {
    self.contentType = importedContentType
    self.exporter = nil
    self.importer = importing
  }
}

extension DataRepresentation {
  /// Never called: a built-in representation has no body.
  ///
  /// ```swift
  /// DataRepresentation<Data>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("DataRepresentation has no body")
  }
}

extension DataRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    [
      RepresentationEntry(
        contentType: contentType,
        exporter: exporter.map { exporter in
          EntryExporter(isFileBacked: false, allowsOpeningInPlace: false) { item in
            let item = UncheckedSendable(item)
            return .available(BoundExport(payload: .data { try await exporter(item.value) }))
          }
        },
        importer: importer.map { .data($0) })
    ]
  }
}
