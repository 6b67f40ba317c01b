import CFerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// One `read(2)` of what has arrived on a non-blocking descriptor, never waiting; retried
  /// when interrupted.
  ///
  /// - Returns: How many bytes came (0 at the end of the input); `nil` when none has yet
  ///   (`EAGAIN`).
  /// - Throws: `Errno` when the read fails.
  public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
    do {
      return try Errno.catching { try read(into: buffer) }
    } catch .wouldBlock {
      return nil
    }
  }

  /// One `write(2)` of as much of `bytes` as a non-blocking descriptor takes now, never
  /// waiting; retried when interrupted.
  ///
  /// - Returns: How many bytes were written; `nil` when there is no room (`EAGAIN`).
  /// - Throws: `Errno` when the write fails (`EPIPE`: the reader closed its end).
  public func writeAvailable(from bytes: UnsafeRawBufferPointer) throws(Errno) -> Int? {
    do {
      return try Errno.catching { try write(bytes) }
    } catch .wouldBlock {
      return nil
    }
  }

  /// A second descriptor of the same open file, close-on-exec (`F_DUPFD_CLOEXEC`).
  ///
  /// - Throws: `Errno` when the process has no descriptor left.
  public func duplicateCloseOnExec() throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.retryingInterrupts { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
  }

  /// Moves at most `length` bytes from this descriptor to `output` in the kernel
  /// (`splice(2)`, `SPLICE_F_MOVE`), one of the two a pipe: the bytes never pass through the
  /// process.
  ///
  /// - Returns: How many bytes moved (0 at the end of the input); `nil` when the input has
  ///   none yet or the output no room (`EAGAIN`).
  /// - Throws: `Errno`: `EINVAL` when the two cannot be spliced (a terminal), and the rest.
  public func splice(to output: FileDescriptor, length: Int) throws(Errno) -> Int? {
    do {
      return try Errno.retryingInterrupts {
        cferry_splice(rawValue, output.rawValue, UInt(length))
      }
    } catch .wouldBlock {
      return nil
    }
  }

  /// Asks for a pipe buffer of at least `size` bytes (`F_SETPIPE_SZ`; at most
  /// `/proc/sys/fs/pipe-max-size` unprivileged, and within the user's pipe pages).
  ///
  /// - Returns: The buffer's size now.
  /// - Throws: `Errno` when the kernel refuses (`EPERM`: past the limits; `EBADF`: not a pipe).
  @discardableResult
  public func setPipeSize(atLeast size: Int) throws(Errno) -> Int {
    Int(try Errno.retryingInterrupts { cferry_set_pipe_size(rawValue, Int32(size)) })
  }
}
