import FoundationEssentials

/// Where a conversion writes an output too large to keep in memory: files in a directory that
/// belongs to one item and is removed with it.
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

  /// A new empty file (mode 0600), open for writing. The caller closes the descriptor.
  ///
  /// - Throws: ``PasteboardError/io(_:)`` when the file cannot be created.
  public func makeFile() throws -> (url: URL, descriptor: Int32) {
    try spool.makeFile()
  }
}
