import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension Data {
  /// The whole contents of the file at `url`, as `Data(contentsOf:options:)` reads them,
  /// without the 4 KiB that swift-foundation's reader leaks for each file it reads with no
  /// bytes in it (LeakSanitizer, issue 17: every paste of an empty file payload cost 4 KiB).
  ///
  /// A file whose size `stat` gives as 0 — empty, or one of /proc's, whose size it does not
  /// tell — is read here to its end; any other through Foundation.
  ///
  /// - Throws: `CocoaError`, as `Data(contentsOf:)` does, when the file cannot be read.
  public init(wholeFileAt url: URL, options: Data.ReadingOptions = []) throws {
    var status = stat()
    let sizeUnknown =
      stat(url.path, &status) == 0 && Int(status.st_mode) & Int(S_IFMT) == Int(S_IFREG)
      && status.st_size == 0
    if sizeUnknown, let bytes = Self.readToEnd(url.path) {
      self = bytes
      return
    }
    // Not a file of size 0, or one that could not be read here: Foundation reads it, or
    // says why not.
    try self.init(contentsOf: url, options: options)
  }

  /// The bytes of the file at `path` up to its end; `nil` when it cannot be opened or read.
  private static func readToEnd(_ path: String) -> Data? {
    guard let descriptor = try? FileDescriptor.open(atPath: path, .readOnly) else { return nil }
    defer { try? descriptor.close() }
    var bytes = Data()
    guard
      (try? descriptor.readChunks(path: path, chunkSize: 16 << 10) { bytes.append(contentsOf: $0) })
        != nil
    else { return nil }
    return bytes
  }
}
