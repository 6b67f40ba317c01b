import FoundationEssentials
import Pasteboard

#if canImport(Glibc)
  import Glibc
#endif

/// The bytes an owner sends, read a chunk at a time: from memory, or from a file that is
/// never read whole.
enum ChunkSource {
  case data(Data)
  case file(descriptor: Int32, size: Int)

  /// Opens a payload for reading.
  init(_ payload: PasteboardPayload) throws {
    switch payload {
    case .data(let data):
      self = .data(data)
    case .file(let url):
      let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw X11Error.malformedReply("cannot open \(url.path)") }
      var status = stat()
      fstat(descriptor, &status)
      self = .file(descriptor: descriptor, size: Int(status.st_size))
    }
  }

  var count: Int {
    switch self {
    case .data(let data): data.count
    case .file(_, let size): size
    }
  }

  /// Calls `body` with the bytes in `range`.
  func withBytes(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Void) {
    switch self {
    case .data(let data):
      data.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    case .file(let descriptor, _):
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 16)
      defer { buffer.deallocate() }
      var filled = 0
      while filled < range.count {
        let got = pread(descriptor, buffer.baseAddress! + filled, range.count - filled, off_t(range.lowerBound + filled))
        if got <= 0 {
          if got < 0 && errno == EINTR { continue }
          break
        }
        filled += got
      }
      body(UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
    }
  }

  func close() {
    if case .file(let descriptor, _) = self { Glibc.close(descriptor) }
  }
}
