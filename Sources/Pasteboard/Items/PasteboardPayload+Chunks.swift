import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension PasteboardPayload {
  /// Calls `body` with the bytes a chunk at a time: a file payload is read into one buffer of
  /// `size` bytes, never whole; bytes in memory are handed over in place.
  ///
  /// - Throws: ``PasteboardError/io(_:)`` when the file cannot be read, or what `body` throws.
  func forEachChunk(size: Int = FileIO.chunkSize, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    switch self {
    case .data(let data):
      try data.withUnsafeBytes { bytes in
        var start = 0
        while start < bytes.count {
          let end = min(start + size, bytes.count)
          try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
          start = end
        }
      }
    case .file(let url):
      let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw PasteboardError.io("open \(url.path): \(String(cString: strerror(errno)))")
      }
      defer { close(descriptor) }
      try FileIO.readChunks(of: descriptor, path: url.path, size: size, body)
    }
  }
}
