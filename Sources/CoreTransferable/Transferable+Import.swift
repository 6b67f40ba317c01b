import FerrySystem
import FoundationEssentials
import UniformTypeIdentifiers

extension Transferable {
  /// Makes a value from bytes, through the first representation whose content type
  /// `contentType` conforms to.
  ///
  /// With `contentType` `nil`, every importing representation is tried in order until one
  /// succeeds. A file-based representation receives the bytes as a temporary file, removed
  /// when its importer returns.
  ///
  /// ```swift
  /// let profile = try await Profile(importing: json, contentType: .profile)
  /// let text = try await String(importing: Data("hi".utf8), contentType: .utf8PlainText)
  /// ```
  ///
  /// - Parameters:
  ///   - data: The bytes.
  ///   - contentType: Their type; `nil` when unknown.
  /// - Throws: ``TransferError``: `.noSuchRepresentation` when no representation imports
  ///   `contentType`, `.importFailed` with the importer's error; or `CancellationError`.
  public init(importing data: Data, contentType: UTType?) async throws {
    self = try await Self.importing(contentType: contentType) { importer in
      try await importer.importing(data, contentType: contentType)
    }
  }

  /// Makes a value from a file, through the first representation whose content type
  /// `contentType` conforms to.
  ///
  /// A file-based representation that attempts to open in place gets `url` itself; other
  /// file-based representations get a kernel copy in a temporary directory, removed when the
  /// importer returns; data-based ones get the file's contents.
  ///
  /// With `contentType` `nil`, the type is inferred first, as Apple's framework does: from the
  /// file name's extension, else from the file's first bytes (the shared-mime-info magic
  /// rules). When a representation imports the inferred type, it is used as if the type had
  /// been given. Only when the type stays unknown, or no representation imports it, is every
  /// importing representation tried in order until one succeeds.
  ///
  /// ```swift
  /// let video = try await Video(importing: downloadedMovie, contentType: .mpeg4Movie)
  /// ```
  ///
  /// - Parameters:
  ///   - url: The file; it is not modified or removed.
  ///   - contentType: Its type; `nil` when unknown.
  /// - Throws: ``TransferError`` or `CancellationError`.
  public init(importing url: URL, contentType: UTType?) async throws {
    let contentType = contentType ?? Self.importableType(inferredFor: url)
    self = try await Self.importing(contentType: contentType) { importer in
      try await importer.importing(file: url, contentType: contentType, allowsOpeningInPlace: true)
    }
  }

  /// The type of `url` as its extension, else its first bytes, say — when one of this type's
  /// representations imports it; `nil` otherwise.
  static func importableType(inferredFor url: URL) -> UTType? {
    let importers = transferImporters()
    func importable(_ type: UTType?) -> UTType? {
      guard let type, !type.isDynamic,
        importers.contains(where: { type.conforms(to: $0.contentType) })
      else { return nil }
      return type
    }
    if !url.pathExtension.isEmpty,
      let type = importable(UTType(filenameExtension: url.pathExtension))
    {
      return type
    }
    return importable(UTType._sniffed(from: Self.leadingBytes(of: url)))
  }

  /// Up to the first 4 KiB of a file, for its magic; none when it cannot be read (the import
  /// then reports that).
  static func leadingBytes(of url: URL) -> [UInt8] {
    guard
      let descriptor = try? FileDescriptor.open(
        FilePath(url.path), .readOnly, options: .closeOnExec)
    else { return [] }
    defer { try? descriptor.close() }
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = (try? bytes.withUnsafeMutableBytes { try descriptor.read(filling: $0) }) ?? 0
    return Array(bytes.prefix(count))
  }

  /// Runs `body` with the importer for `contentType`, or with each importer in turn when it
  /// is `nil`.
  private static func importing(
    contentType: UTType?, _ body: (TransferImporter<Self>) async throws -> Self
  ) async throws -> Self {
    let importers = transferImporters()
    if let contentType {
      guard let importer = importers.first(where: { contentType.conforms(to: $0.contentType) })
      else {
        throw TransferError(
          .noSuchRepresentation, .import, typeName: transferTypeName, contentType: contentType)
      }
      return try await body(importer)
    }
    var firstError: (any Error)?
    for importer in importers {
      do {
        return try await body(importer)
      } catch let error as CancellationError {
        throw error
      } catch {
        firstError = firstError ?? ((error as? TransferError)?.underlyingError ?? error)
      }
    }
    throw TransferError(
      firstError == nil ? .noSuchRepresentation : .importFailed, .import,
      typeName: transferTypeName, contentType: nil, underlyingError: firstError)
  }
}
