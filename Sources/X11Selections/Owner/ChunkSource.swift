import FerrySystem
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

  /// Calls `body` with the bytes in `range`: in place for data, read into `buffer` for a file.
  func withBytes(_ range: Range<Int>, buffer: ChunkBuffer, _ body: (UnsafeRawBufferPointer) -> Void)
  {
    switch self {
    case .data(let data):
      data.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    case .file(let descriptor, _):
      let storage = UnsafeMutableRawBufferPointer(
        rebasing: buffer.bytes(range.count)[..<range.count])
      // A read that fails ends the chunk there, as a file that ended early.
      let filled =
        (try? FileDescriptor(rawValue: descriptor).read(
          fromAbsoluteOffset: Int64(range.lowerBound), filling: storage))
        ?? 0
      body(UnsafeRawBufferPointer(rebasing: storage[..<filled]))
    }
  }

  func close() {
    if case .file(let descriptor, _) = self { Glibc.close(descriptor) }
  }
}

/// The one buffer the owner reads file chunks into on the X thread: reused from chunk to
/// chunk and transfer to transfer (Xlib has sent a chunk's bytes by the time
/// `XChangeProperty` returns), and freed when no transfer is left, so that an owner serving
/// nothing holds nothing. A buffer per chunk cost a mapping and its page faults each time, or,
/// once glibc had raised its mmap threshold, a block that stayed in the heap when freed.
typealias ChunkBuffer = ReusableBuffer
