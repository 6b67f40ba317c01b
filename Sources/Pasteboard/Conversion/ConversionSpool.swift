import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a conversion, or a lazy representation reading from elsewhere, writes an output too
/// large to keep in memory: files in a directory that belongs to one item and is removed with
/// it.
///
/// ```swift
/// let (url, descriptor) = try spool.makeFile()
/// defer { close(descriptor) }
/// try writeConvertedChunks(to: descriptor)
/// return .file(url)
/// ```
///
/// The directory is under ``ConverterRegistry/spoolParent`` (the temporary directory when it
/// is `nil`). A concealed item has no spool: its conversions stay in memory.
public struct ConversionSpool: Sendable {
  let spool: Spool

  /// The most bytes ``payload(inMemoryUpTo:writtenBy:)`` keeps in memory by default: 1 MiB,
  /// as a text conversion does.
  public static let inMemoryLimit = 1 << 20

  /// A new empty file (mode 0600), open for writing. The caller closes the descriptor.
  ///
  /// - Throws: ``PasteboardError/io(_:)`` when the file cannot be created.
  public func makeFile() throws -> (url: URL, descriptor: Int32) {
    try spool.makeFile()
  }

  /// What `write` writes to a new file of the spool, as it writes it: the file, or — when it
  /// wrote at most `limit` bytes — the bytes in memory, the file removed. A `write` that
  /// throws leaves no file behind.
  ///
  /// ```swift
  /// let payload = try await spool.payload { descriptor in
  ///   try await backend.read(.clipboard, target: "UTF8_STRING", into: descriptor, stepTimeout: .seconds(2))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - limit: The most bytes returned in memory.
  ///   - write: Writes the bytes to the descriptor it is given (open for writing; closed here).
  /// - Throws: What `write` throws, or ``PasteboardError/io(_:)`` when the file cannot be
  ///   made or read back.
  public func payload(
    inMemoryUpTo limit: Int = inMemoryLimit, writtenBy write: (Int32) async throws -> Void
  ) async throws -> PasteboardPayload {
    let (url, descriptor) = try makeFile()
    do {
      try await write(descriptor)
    } catch {
      close(descriptor)
      unlink(url.path)
      throw error
    }
    close(descriptor)
    let payload = PasteboardPayload.file(url)
    guard payload.byteCount <= limit else { return payload }
    defer { unlink(url.path) }
    do {
      return .data(try Data(wholeFileAt: url))
    } catch {
      throw PasteboardError.io("reading \(url.path): \(error.plainDescription)")
    }
  }
}
