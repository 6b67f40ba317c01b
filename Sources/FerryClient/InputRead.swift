#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One `read(2)` of a caller's input, as every reader of standard input wants it: retried on
/// EINTR, and waiting for bytes on a descriptor left non-blocking by whoever made it (EAGAIN)
/// instead of failing.
///
/// ```swift
/// switch InputRead.some(STDIN_FILENO, into: buffer, count: 65536) {
/// case .success(0): break            // end of file
/// case .success(let count): …
/// case .failure(let error): error.code  // errno
/// }
/// ```
public enum InputRead {
  /// A failed read, with its errno.
  public struct Failure: Error, Equatable {
    /// The errno `read(2)` set.
    public var code: Int32
  }

  /// Reads at most `count` bytes into `buffer`.
  ///
  /// - Returns: How many bytes came; 0 at end of file.
  public static func some(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int)
    -> Result<Int, Failure>
  {
    while true {
      let got = read(descriptor, buffer, count)
      if got >= 0 { return .success(got) }
      switch errno {
      case EINTR:
        continue
      case EAGAIN:
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, -1)
      case let code:
        return .failure(Failure(code: code))
      }
    }
  }
}
