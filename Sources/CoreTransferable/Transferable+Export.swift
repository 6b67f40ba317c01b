import FoundationEssentials
import UniformTypeIdentifiers

extension Transferable {
  /// Exports the value as bytes, through its first representation that conforms to
  /// `contentType` and whose exporting condition holds.
  ///
  /// A file-backed representation is read whole into memory; to keep a large file out of
  /// memory, use ``export(to:contentType:)`` or ``withExportedFile(contentType:fileHandler:)``.
  /// Every representation counts, whatever its visibility: the caller is the sending process.
  ///
  /// ```swift
  /// let json = try await profile.exported(as: .profile)
  /// let name = try await profile.exported(as: .plainText)   // Data("Juan".utf8)
  /// let first = try await profile.exported(as: nil)         // the first representation: JSON
  /// ```
  ///
  /// - Parameter contentType: The requested type; `nil` for the first exportable
  ///   representation.
  /// - Returns: The bytes.
  /// - Throws: ``TransferError``: `.noSuchRepresentation`, `.exportingConditionFalse` or
  ///   `.exportFailed`; or `CancellationError`.
  public func exported(as contentType: UTType?) async throws -> Data {
    try await firstExport(matching: contentType).data()
  }

  /// Exports the value as a new file in `destinationDirectory`, through its first
  /// representation that conforms to `contentType`.
  ///
  /// The file is named after the representation's suggested file name, or else the exported
  /// file's name or the value's type, with the content type's extension; an existing file is
  /// never replaced (`Name 2.ext`, …). File-backed representations are copied by the kernel,
  /// never read into memory. The caller owns the new file.
  ///
  /// ```swift
  /// let file = try await archive.export(to: downloads, contentType: .commaSeparatedText)
  /// // …/Downloads/Profiles.csv
  /// ```
  ///
  /// - Parameters:
  ///   - destinationDirectory: An existing directory.
  ///   - contentType: The requested type; `nil` for the first exportable representation.
  /// - Returns: The new file.
  /// - Throws: ``TransferError`` or `CancellationError`.
  public func export(to destinationDirectory: URL, contentType: UTType?) async throws -> URL {
    try await firstExport(matching: contentType).file(in: destinationDirectory).file
  }

  /// Exports the value as a temporary file, hands it to `fileHandler`, and removes it when
  /// the handler returns.
  ///
  /// ```swift
  /// let size = try await video.withExportedFile(contentType: .mpeg4Movie) { url in
  ///   try url.resourceValues(forKeys: [.fileSizeKey]).fileSize
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - contentType: The requested type; `nil` for the first exportable representation.
  ///   - fileHandler: Reads the file; it must not keep the URL.
  /// - Returns: What `fileHandler` returns.
  /// - Throws: ``TransferError``, `CancellationError`, or what `fileHandler` throws.
  public func withExportedFile<Result>(
    contentType: UTType?, fileHandler: (URL) async throws -> Result
  ) async throws -> Result {
    let export = try firstExport(matching: contentType)
    let directory = try await TransferError.wrapping(
      .exportFailed, .export, typeName: Self.transferTypeName, contentType: export.contentType
    ) { try FileTransfer.makeTemporaryDirectory() }
    defer { FileTransfer.removeDirectory(directory) }
    let file = try await export.file(in: directory).file
    return try await fileHandler(file)
  }

  /// The file name suggested for this value: that of its first exportable representation that
  /// has one.
  ///
  /// ```swift
  /// // DataRepresentation(…).suggestedFileName("Profiles.csv")
  /// archive.suggestedFilename   // "Profiles.csv"
  /// ```
  public var suggestedFilename: String? {
    for (_, binding) in exportBindings(matching: nil) {
      if case .available(let export) = binding, let name = export.suggestedFileName {
        return name
      }
    }
    return nil
  }
}
