#if canImport(Glibc)
  import Glibc
#endif

/// The exit statuses of `pbcopy`, `pbpaste` and `ferry`, the same for every command.
///
/// | status | meaning |
/// |---|---|
/// | 0 | done |
/// | 1 | nothing to paste, the type is not available, nothing to copy, no such history entry, or no history |
/// | 2 | the command line is wrong: unknown option, type or pasteboard name |
/// | 3 | no display and no broker to talk to |
/// | 4 | a peer did not answer in time |
/// | 5 | the input does not fit the type (bytes that are not UTF-8 given as text) |
/// | 6 | a file could not be read or written, or a non-regular input went past ``InputReader/streamLimit`` |
public enum ExitStatus: Int32, Sendable {
  case success = 0
  case nothingAvailable = 1
  case usage = 2
  case noDisplayNoBroker = 3
  case timeout = 4
  case badInput = 5
  case io = 6
}

/// A failure reported as one line on standard error with a distinct exit status.
public struct CommandFailure: Error, CustomStringConvertible, Sendable {
  /// The line, without the program name.
  public var message: String
  /// The status to exit with.
  public var status: ExitStatus

  /// Creates a failure.
  public init(_ message: String, status: ExitStatus) {
    self.message = message
    self.status = status
  }

  /// The line.
  public var description: String { message }
}

/// Writes `line` to standard error, prefixed with the program's name.
public func reportError(_ program: String, _ line: String) {
  writeToStandardError("\(program): \(line)\n")
}

/// Writes `text` to standard error as it is.
func writeToStandardError(_ text: String) {
  _ = text.utf8CString.withUnsafeBufferPointer { buffer in
    write(2, buffer.baseAddress, buffer.count - 1)
  }
}
