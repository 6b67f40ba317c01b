import FerrySystem
import FoundationEssentials

extension PasteboardPayload {
  /// Calls `body` with the bytes a chunk at a time: a file payload is read into one buffer of
  /// `size` bytes, never whole; bytes in memory are handed over in place.
  ///
  /// - Throws: ``PasteboardError/io(_:)`` when the file cannot be read, or what `body` throws.
  func forEachChunk(size: Int = FileIO.chunkSize, _ body: (UnsafeRawBufferPointer) throws -> Void)
    throws
  {
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
      try FileIO.mapped {
        let descriptor = try FileDescriptor.open(atPath: url.path, .readOnly)
        defer { try? descriptor.close() }
        try descriptor.readChunks(path: url.path, chunkSize: size, body)
      }
    }
  }
}
