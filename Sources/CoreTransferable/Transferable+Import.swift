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
  /// importer returns; data-based ones get the file's contents. With `contentType` `nil`,
  /// every importing representation is tried in order until one succeeds.
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
    self = try await Self.importing(contentType: contentType) { importer in
      try await importer.importing(file: url, contentType: contentType, allowsOpeningInPlace: true)
    }
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
