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
    /// Reading the source failed, or it ended early, with errno (0 for a short file).
    case source(Int32)
    /// Writing the destination failed, with errno.
    case destination(Int32)
  }

  /// Copies `count` bytes of `source`, from its start, to `destination`.
  static func copy(from source: Int32, count: Int, to destination: Int32) throws(Failure) {
    var offset: off_t = 0
    var kernelCopies = true
    while Int(offset) < count {
      let remaining = count - Int(offset)
      let chunk = min(remaining, 1 << 30)
      let moved: Int
      if kernelCopies {
        moved = sendfile(destination, source, &offset, chunk)
      } else {
        moved = try readWrite(source, at: &offset, count: chunk, to: destination)
      }
      if moved > 0 { continue }
      if moved == 0 { throw .source(0) }
      let error = errno
      if error == EINTR { continue }
      if error == EAGAIN {
        var entry = pollfd(fd: destination, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, -1)
        continue
      }
      // A destination sendfile cannot write (O_APPEND, a terminal): the read/write loop —
      // only before the first byte, so a failure halfway is not retried.
      let unsupported = [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF].contains(error)
      guard unsupported, offset == 0, kernelCopies else { throw .destination(error) }
      kernelCopies = false
    }
  }

  /// One buffer's worth through user space, for destinations the kernel cannot copy to.
  private static func readWrite(
    _ source: Int32, at offset: inout off_t, count: Int, to destination: Int32
  ) throws(Failure) -> Int {
    let size = min(count, 1 << 20)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    let read = pread(source, buffer.baseAddress, size, offset)
    if read < 0 {
      if errno == EINTR { return -1 }
      throw .source(errno)
    }
    if read == 0 { return 0 }
    var written = 0
    while written < read {
      let count = write(destination, buffer.baseAddress! + written, read - written)
      if count >= 0 {
        written += count
      } else if errno == EINTR {
        continue
      } else if errno == EAGAIN {
        var entry = pollfd(fd: destination, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, -1)
      } else {
        throw .destination(errno)
      }
    }
    offset += off_t(read)
    return read
  }
}
