import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The bytes of one representation: in memory, or in a file that is never read whole.
///
/// ```swift
/// let payload = try await item.payload(for: .png)
/// switch payload {
/// case .data(let bytes): print(bytes.count)
/// case .file(let url): print(url.path)
/// }
/// ```
public enum PasteboardPayload: Sendable {
  /// Bytes in memory.
  case data(Data)
  /// A file whose contents are the bytes.
  case file(URL)

  /// The bytes, reading a file payload whole. Prefer ``write(to:)`` for large payloads.
  ///
  /// - Throws: `CocoaError` when a file payload cannot be read.
  public func data() throws -> Data {
    switch self {
    case .data(let data): return data
    case .file(let url): return try Data(wholeFileAt: url, options: .mappedIfSafe)
    }
  }

  /// The size in bytes.
  public var byteCount: Int {
    switch self {
    case .data(let data): return data.count
    case .file(let url):
      var status = stat()
      return stat(url.path, &status) == 0 ? Int(status.st_size) : 0
    }
  }

  /// Writes the bytes to an open file descriptor, a file payload in chunks through the
  /// kernel, so a payload of any size costs no more memory than a chunk.
  ///
  /// ```swift
  /// try payload.write(to: STDOUT_FILENO)
  /// ```
  ///
  /// - Parameter descriptor: A descriptor open for writing.
  /// - Throws: ``PasteboardError/io(_:)`` naming the failed call.
  public func write(to descriptor: Int32) throws {
    switch self {
    case .data(let data):
      try data.withUnsafeBytes { try FileIO.writeAll($0, to: descriptor) }
    case .file(let url):
      try FileIO.copyContents(of: url.path, to: descriptor)
    }
  }
}
