import FoundationEssentials
import UniformTypeIdentifiers

/// One way to make a value of `Item` from data or a file of a content type.
///
/// ``Transferable/transferImporters()`` lists a type's importers in declaration order, with
/// proxies expanded in place. Each accepts either form: a data importer given a file reads
/// it, a file importer given data receives it as a temporary file.
///
/// ```swift
/// let importers = Profile.transferImporters()
/// if let importer = importers.first(where: { offered.conforms(to: $0.contentType) }) {
///   let profile = try await importer.importing(data, contentType: offered)
/// }
/// ```
///
/// Package API, for the `Pasteboard` module.
package struct TransferImporter<Item: Transferable>: Sendable {
  /// The content type the importer reads; offered types that conform to it are accepted.
  ///
  /// ```swift
  /// String.transferImporters().map(\.contentType)   // [public.utf8-plain-text, public.plain-text]
  /// ```
  package let contentType: UTType
  let importer: EntryImporter<Item>

  /// Whether the importer reads files (a ``FileRepresentation`` underneath).
  ///
  /// ```swift
  /// Video.transferImporters()[0].isFileBacked   // true
  /// ```
  package var isFileBacked: Bool { importer.isFileBacked }

  /// Whether the importer asks for the sender's own file rather than a copy.
  ///
  /// ```swift
  /// if importer.attemptsOpeningInPlace { print("will use", url, "itself") }
  /// ```
  package var attemptsOpeningInPlace: Bool { importer.attemptsOpeningInPlace }

  init(contentType: UTType, importer: EntryImporter<Item>) {
    self.contentType = contentType
    self.importer = importer
  }

  /// Makes a value from bytes.
  ///
  /// A file importer receives the bytes as a file in a temporary directory, removed after it
  /// returns.
  ///
  /// ```swift
  /// let name = try await String.transferImporters()[0].importing(Data("Juan".utf8))
  /// ```
  ///
  /// - Parameters:
  ///   - data: The bytes.
  ///   - offered: Their content type, for messages and file names; ``contentType`` when `nil`.
  /// - Throws: ``TransferError`` (`.importFailed`) or `CancellationError`.
  package func importing(_ data: Data, contentType offered: UTType? = nil) async throws -> Item {
    let type = offered ?? contentType
    return try await TransferError.wrapping(
      .importFailed, .import, typeName: Item.transferTypeName, contentType: type
    ) {
      switch importer {
      case .data(let make):
        return try await make(data)
      case .file(_, let make):
        let directory = try FileTransfer.makeTemporaryDirectory()
        defer { FileTransfer.removeDirectory(directory) }
        let name = FileTransfer.fileName(suggested: nil, fallback: "received", contentType: type)
        let file = try FileTransfer.write(data, into: directory, fileName: name)
        return try await make(ReceivedTransferredFile(file: file, isOriginalFile: false))
      }
    }
  }

  /// Makes a value from a file.
  ///
  /// A file importer gets `file` itself when it attempts to open in place and
  /// `allowsOpeningInPlace` is `true`; otherwise a kernel copy in a temporary directory,
  /// removed after it returns. A data importer gets the file's contents.
  ///
  /// ```swift
  /// let importer = Video.transferImporters()[0]
  /// let video = try await importer.importing(file: url, allowsOpeningInPlace: false)
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - offered: Its content type, for messages; ``contentType`` when `nil`.
  ///   - allowsOpeningInPlace: Whether the importer may use `file` itself.
  /// - Throws: ``TransferError`` (`.importFailed`) or `CancellationError`.
  package func importing(
    file: URL, contentType offered: UTType? = nil, allowsOpeningInPlace: Bool
  ) async throws -> Item {
    try await TransferError.wrapping(
      .importFailed, .import, typeName: Item.transferTypeName, contentType: offered ?? contentType
    ) {
      switch importer {
      case .data(let make):
        return try await make(try FileTransfer.readAll(file))
      case .file(let attempts, let make):
        if attempts && allowsOpeningInPlace {
          return try await make(ReceivedTransferredFile(file: file, isOriginalFile: true))
        }
        let directory = try FileTransfer.makeTemporaryDirectory()
        defer { FileTransfer.removeDirectory(directory) }
        let copy = try FileTransfer.copy(file, into: directory, fileName: file.lastPathComponent)
        return try await make(ReceivedTransferredFile(file: copy, isOriginalFile: false))
      }
    }
  }

  /// Makes a value from another value's export: the bytes for a data importer; for a file
  /// importer, the sender's file when both sides agree to open in place, else a kernel copy in
  /// a temporary directory removed after the importer returns.
  ///
  /// ```swift
  /// let copy = try await importer.importing(video.transferExports()[0])
  /// ```
  ///
  /// - Throws: ``TransferError`` (`.exportFailed` naming the sender's type, or
  ///   `.importFailed` naming `Item`) or `CancellationError`.
  package func importing(_ export: TransferExport) async throws -> Item {
    switch importer {
    case .data:
      return try await importing(try await export.data(), contentType: export.contentType)
    case .file(let attempts, let make):
      guard export.isFileBacked else {
        return try await importing(try await export.data(), contentType: export.contentType)
      }
      let directory = try await TransferError.wrapping(
        .importFailed, .import, typeName: Item.transferTypeName, contentType: export.contentType
      ) { try FileTransfer.makeTemporaryDirectory() }
      defer { FileTransfer.removeDirectory(directory) }
      let received = try await export.file(in: directory, openingInPlace: attempts)
      return try await TransferError.wrapping(
        .importFailed, .import, typeName: Item.transferTypeName, contentType: export.contentType
      ) { try await make(received) }
    }
  }
}
