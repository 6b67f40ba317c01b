import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Descriptor-level file work that never holds a file's contents in memory.
enum FileIO {
  /// The chunk used when the kernel cannot copy for us.
  static let chunkSize = 1 << 20

  /// Writes every byte of `buffer`, retrying short writes and `EINTR`.
  static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) throws {
    do {
      try FileDescriptor(rawValue: descriptor).writeAll(from: buffer)
    } catch {
      throw PasteboardError.io("write: \(error)")
    }
  }

  /// Copies the file at `path` to `descriptor`: `sendfile(2)` where the kernel allows it,
  /// else 1 MiB reads and writes.
  static func copyContents(of path: String, to descriptor: Int32) throws {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else {
      throw PasteboardError.io("open \(path): \(Errno.last)")
    }
    defer { close(source) }
    sending: while true {
      do {
        if try Errno.retryingInterrupts({ sendfile(descriptor, source, nil, chunkSize) }) == 0 { return }
      } catch .invalidArgument, .noFunction {
        break sending
      } catch {
        throw PasteboardError.io("sendfile: \(error)")
      }
    }
    try readChunks(of: source, path: path) { try writeAll($0, to: descriptor) }
  }

  /// Reads `descriptor` (open on `path`, named in errors) to its end into one buffer of `size`
  /// bytes, calling `body` with each chunk read.
  static func readChunks(
    of descriptor: Int32, path: String, size: Int = chunkSize, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do {
        count = try Errno.catching { try FileDescriptor(rawValue: descriptor).read(into: buffer) }
      } catch {
        throw PasteboardError.io("read \(path): \(error)")
      }
      if count == 0 { return }
      try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
  }

  /// Copies the file at `source` to a new file at `destination` without reading it into
  /// memory, and flushes it to disk when `sync` is set.
  static func copyFile(_ source: String, to destination: String, sync: Bool) throws {
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      throw PasteboardError.io("create \(destination): \(Errno.last)")
    }
    defer { close(output) }
    try copyContents(of: source, to: output)
    if sync, fsync(output) != 0 {
      throw PasteboardError.io("fsync \(destination): \(Errno.last)")
    }
  }

  /// Writes `data` to a new file at `destination`, flushed to disk when `sync` is set.
  static func writeFile(_ data: Data, to destination: String, sync: Bool) throws {
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      throw PasteboardError.io("create \(destination): \(Errno.last)")
    }
    defer { close(output) }
    try data.withUnsafeBytes { try writeAll($0, to: output) }
    if sync, fsync(output) != 0 {
      throw PasteboardError.io("fsync \(destination): \(Errno.last)")
    }
  }
}
