import FoundationEssentials
import UniformTypeIdentifiers

/// One representation of one value, ready to produce its bytes or its file on request.
///
/// This is the type-erased view the pasteboard drives without knowing the value's type:
/// ``Transferable/transferExports(visibleTo:)`` lists a value's exports in order, with
/// proxies expanded in place and exporting conditions already evaluated for the value.
/// Nothing runs until ``data()`` or ``file(in:openingInPlace:)`` is called.
///
/// ```swift
/// for export in profile.transferExports(visibleTo: .all) {
///   print(export.contentType, export.isFileBacked)
/// }
/// let json = try await profile.transferExports()[0].data()
/// ```
///
/// Package API, for the `Pasteboard` module.
package struct TransferExport: Sendable {
  /// The type of the bytes or the file.
  ///
  /// ```swift
  /// profile.transferExports().map(\.contentType)
  /// // [com.example.profile, public.utf8-plain-text, public.plain-text]
  /// ```
  package let contentType: UTType
  /// Who may see this export; `.all` unless a `.visibility(_:)` modifier said otherwise.
  ///
  /// ```swift
  /// let shared = exports.filter { $0.visibility.isVisible(to: .all) }
  /// ```
  package let visibility: TransferRepresentationVisibility
  /// The file name suggested by a `.suggestedFileName(_:)` modifier, if any.
  ///
  /// ```swift
  /// archive.transferExports()[0].suggestedFileName   // "Profiles.csv"
  /// ```
  package let suggestedFileName: String?
  /// Whether the export is a file (a ``FileRepresentation`` underneath); `data()` then reads
  /// the file whole, and `file(in:openingInPlace:)` copies it without reading it into memory.
  ///
  /// ```swift
  /// video.transferExports().map(\.isFileBacked)   // [true, false, false]
  /// ```
  package let isFileBacked: Bool
  /// Whether the representation lets receivers open its files in place. A single file may
  /// also allow it through ``SentTransferredFile/allowAccessingOriginalFile``.
  ///
  /// ```swift
  /// let received = try await export.file(in: spool, openingInPlace: export.allowsOpeningInPlace)
  /// ```
  package let allowsOpeningInPlace: Bool
  /// The name of the exported value's type, for messages.
  ///
  /// ```swift
  /// video.transferExports()[0].typeName   // "Video"
  /// ```
  package let typeName: String

  let payload: ExportPayload

  init(
    contentType: UTType, visibility: TransferRepresentationVisibility,
    allowsOpeningInPlace: Bool, typeName: String, export: BoundExport
  ) {
    self.contentType = contentType
    self.visibility = visibility
    self.suggestedFileName = export.suggestedFileName
    self.allowsOpeningInPlace = allowsOpeningInPlace
    self.typeName = typeName
    self.payload = export.payload
    if case .file = export.payload { self.isFileBacked = true } else { self.isFileBacked = false }
  }

  /// Produces the bytes. A file-backed export is read whole.
  ///
  /// ```swift
  /// let csv = try await export.data()
  /// ```
  ///
  /// - Throws: ``TransferError`` (`.exportFailed`, or `.exportingConditionFalse` for a
  ///   condition that only an asynchronous proxy's value could decide), or
  ///   `CancellationError`.
  package func data() async throws -> Data {
    try await TransferError.wrapping(
      .exportFailed, .export, typeName: typeName, contentType: contentType
    ) {
      try await payload.data()
    }
  }

  /// Produces a file.
  ///
  /// With `openingInPlace` and a sender that allows it, the result is the sender's own file
  /// (`isOriginalFile == true`): read it, do not delete it. Otherwise the result is a new file
  /// in `directory`, owned by the caller: a kernel copy of a file-backed export (never read
  /// into memory), or the bytes of a data-backed one. The new file is named from
  /// ``suggestedFileName``, or else the sender's file name or the value's type, with the
  /// content type's extension, and never replaces an existing file (`name 2.ext`, …).
  ///
  /// ```swift
  /// let received = try await export.file(in: spoolDirectory)
  /// defer {
  ///   if !received.isOriginalFile { try? FileManager.default.removeItem(at: received.file) }
  /// }
  /// ```
  ///
  /// - Throws: ``TransferError`` or `CancellationError`.
  package func file(in directory: URL, openingInPlace: Bool = false) async throws
    -> ReceivedTransferredFile
  {
    try await TransferError.wrapping(
      .exportFailed, .export, typeName: typeName, contentType: contentType
    ) {
      switch payload {
      case .file(let produce):
        let sent = try await produce()
        if openingInPlace && (allowsOpeningInPlace || sent.allowAccessingOriginalFile) {
          return ReceivedTransferredFile(file: sent.file, isOriginalFile: true)
        }
        let name = FileTransfer.fileName(
          suggested: suggestedFileName, fallback: sent.file.lastPathComponent,
          contentType: contentType)
        let copy = try FileTransfer.copy(sent.file, into: directory, fileName: name)
        return ReceivedTransferredFile(file: copy, isOriginalFile: false)
      case .data(let produce):
        let data = try await produce()
        let name = FileTransfer.fileName(
          suggested: suggestedFileName, fallback: typeName, contentType: contentType)
        let file = try FileTransfer.write(data, into: directory, fileName: name)
        return ReceivedTransferredFile(file: file, isOriginalFile: false)
      }
    }
  }
}

extension TransferError {
  /// Runs a transfer step, turning what it throws into a ``TransferError`` with `code`; errors
  /// that already are one, and cancellation, pass through.
  static func wrapping<Result>(
    _ code: Code, _ direction: Direction, typeName: String, contentType: UTType?,
    _ body: () async throws -> Result
  ) async throws -> Result {
    do {
      return try await body()
    } catch let error as TransferError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch is ExportingConditionFailure {
      throw TransferError(
        .exportingConditionFalse, .export, typeName: typeName, contentType: contentType)
    } catch {
      throw TransferError(
        code, direction, typeName: typeName, contentType: contentType, underlyingError: error)
    }
  }
}
