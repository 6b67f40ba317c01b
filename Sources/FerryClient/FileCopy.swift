import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Copying a file's bytes to a descriptor inside the kernel with `sendfile` (a regular file, a
/// pipe, a socket, a terminal: any destination since Linux 2.6.33), and with a read/write
/// loop only when the kernel refuses the destination (one opened with `O_APPEND`).
///
/// ```swift
/// try FileCopy.copy(from: file, count: size, to: STDOUT_FILENO)
/// ```
enum FileCopy {
  /// Why a copy stopped.
  enum Failure: Error {
    /// Reading the source failed, or it ended early (`nil`).
    case source(Errno?)
    /// Writing the destination failed.
    case destination(Errno)
  }

  /// Copies `count` bytes of `source`, from its start, to `destination`, waiting for room when
  /// the destination was left non-blocking.
  static func copy(from source: Int32, count: Int, to destination: Int32) throws(Failure) {
    var offset: off_t = 0
    var kernelCopies = true
    while Int(offset) < count {
      let chunk = min(count - Int(offset), 1 << 30)
      guard kernelCopies else {
        try readWrite(source, at: &offset, count: chunk, to: destination)
        continue
      }
      let moved: Int
      do throws(Errno) {
        moved = try Errno.retryingInterrupts { sendfile(destination, source, &offset, chunk) }
      } catch .resourceTemporarilyUnavailable {
        _ = try? FileDescriptor(rawValue: destination).wait(for: .writable)
        continue
      } catch  where offset == 0 && Self.kernelRefusals.contains(error) {
        // A destination sendfile cannot write (O_APPEND, a terminal): the read/write loop —
        // only before the first byte, so a failure halfway is not retried.
        kernelCopies = false
        continue
      } catch {
        throw .destination(error)
      }
      if moved == 0 { throw .source(nil) }
    }
  }

  /// How `sendfile` refuses a destination it cannot write to.
  private static let kernelRefusals: [Errno] = [
    .improperLink, .invalidArgument, .noFunction, .notSupportedOnSocket, .badFileDescriptor,
  ]

  /// One buffer's worth through user space, for destinations the kernel cannot copy to.
  private static func readWrite(
    _ source: Int32, at offset: inout off_t, count: Int, to destination: Int32
  ) throws(Failure) {
    let size = min(count, 1 << 20)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    let read: Int
    do {
      read = try Errno.catching {
        try FileDescriptor(rawValue: source).read(fromAbsoluteOffset: Int64(offset), into: buffer)
      }
    } catch {
      throw .source(error)
    }
    if read == 0 { throw .source(nil) }
    do {
      try FileDescriptor(rawValue: destination).writeAll(
        from: UnsafeRawBufferPointer(rebasing: buffer[..<read]), waitingForRoom: true)
    } catch {
      throw .destination(error)
    }
    offset += off_t(read)
  }
}
