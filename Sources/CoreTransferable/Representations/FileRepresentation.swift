import FoundationEssentials
import UniformTypeIdentifiers

/// A representation that transfers a value as a file, without reading it into memory.
///
/// The exporter names a file (``SentTransferredFile``); the importer receives one
/// (``ReceivedTransferredFile``). Between them the file is copied by the kernel in chunks —
/// a 200 MB movie costs a few kilobytes of memory — unless the receiver attempts to open it in
/// place and the sender allows that, in which case the receiver gets the sender's file itself.
///
/// ```swift
/// struct Video: Transferable {
///   let url: URL
///
///   static var transferRepresentation: some TransferRepresentation {
///     FileRepresentation(contentType: .mpeg4Movie) { video in
///       SentTransferredFile(video.url)
///     } importing: { received in
///       let copy = Video.library.appendingPathComponent(received.file.lastPathComponent)
///       try FileManager.default.copyItem(at: received.file, to: copy)
///       return Video(url: copy)
///     }
///   }
/// }
/// ```
///
/// A received copy lives in a temporary directory that the transfer removes after the
/// importer returns: copy or move the file to keep it.
public struct FileRepresentation<Item: Transferable>: TransferRepresentation {
  let contentType: UTType
  let allowsOpeningInPlace: Bool
  let attemptsOpeningInPlace: Bool
  let exporter: (@Sendable (Item) async throws -> SentTransferredFile)?
  let importer: (@Sendable (ReceivedTransferredFile) async throws -> Item)?

  /// A representation that exports and imports files of `contentType`.
  ///
  /// ```swift
  /// FileRepresentation(contentType: .mpeg4Movie) { video in
  ///   SentTransferredFile(video.url)
  /// } importing: { received in
  ///   try Video(copying: received.file)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - contentType: The type of the files.
  ///   - shouldAttemptToOpenInPlace: Whether the importer asks for the sender's own file
  ///     rather than a copy, and whether this representation lets receivers open its
  ///     exported files in place.
  ///   - exporting: Names the file of a value.
  ///   - importing: Makes a value from a received file.
  public init(
    contentType: UTType,
    shouldAttemptToOpenInPlace: Bool = false,
    exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile,
    importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
  ) {
    self.contentType = contentType
    self.allowsOpeningInPlace = shouldAttemptToOpenInPlace
    self.attemptsOpeningInPlace = shouldAttemptToOpenInPlace
    self.exporter = exporting
    self.importer = importing
  }

  /// A representation that only exports files of `exportedContentType`.
  ///
  /// ```swift
  /// FileRepresentation(exportedContentType: .pdf, shouldAllowToOpenInPlace: true) { report in
  ///   SentTransferredFile(report.pdfURL)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - exportedContentType: The type of the files.
  ///   - shouldAllowToOpenInPlace: Whether receivers that attempt to open in place may get the
  ///     exported file itself rather than a copy.
  ///   - exporting: Names the file of a value.
  public init(
    exportedContentType: UTType,
    shouldAllowToOpenInPlace: Bool = false,
    exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile
  ) {
    self.contentType = exportedContentType
    self.allowsOpeningInPlace = shouldAllowToOpenInPlace
    self.attemptsOpeningInPlace = false
    self.exporter = exporting
    self.importer = nil
  }

  /// A representation that only imports files of `importedContentType`.
  ///
  /// ```swift
  /// FileRepresentation(importedContentType: .mpeg4Movie) { received in
  ///   try Video(copying: received.file)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - importedContentType: The type of the files.
  ///   - shouldAttemptToOpenInPlace: Whether the importer asks for the sender's own file
  ///     rather than a copy; it gets it only when the sender allows.
  ///   - importing: Makes a value from a received file.
  public init(
    importedContentType: UTType,
    shouldAttemptToOpenInPlace: Bool = false,
    importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
  ) {
    self.contentType = importedContentType
    self.allowsOpeningInPlace = false
    self.attemptsOpeningInPlace = shouldAttemptToOpenInPlace
    self.exporter = nil
    self.importer = importing
  }
}

extension FileRepresentation {
  /// Never called: a built-in representation has no body.
  ///
  /// ```swift
  /// FileRepresentation<Video>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("FileRepresentation has no body")
  }
}

extension FileRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    [
      RepresentationEntry(
        contentType: contentType,
        exporter: exporter.map { exporter in
          EntryExporter(isFileBacked: true, allowsOpeningInPlace: allowsOpeningInPlace) { item in
            let item = UncheckedSendable(item)
            return .available(BoundExport(payload: .file { try await exporter(item.value) }))
          }
        },
        importer: importer.map { .file(attemptsOpeningInPlace: attemptsOpeningInPlace, $0) })
    ]
  }
}
