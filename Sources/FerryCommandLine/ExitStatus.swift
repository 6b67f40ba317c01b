#if canImport(Glibc)
  import Glibc
#endif

/// The exit statuses of `pbcopy`, `pbpaste` and `ferry`, the same for every command.
///
/// Each status means one thing, written once, in ``meaning``: every tool's `--help` prints
/// ``helpText``, and README.md's table says the same words (`ExitStatusTests` compares
/// them).
///
/// ```swift
/// throw CommandFailure("nothing to paste: the general pasteboard is empty", status: .nothingAvailable)
/// ```
public enum ExitStatus: Int32, Sendable, CaseIterable {
  case success = 0
  case nothingAvailable = 1
  case usage = 2
  case noDisplayNoBroker = 3
  case timeout = 4
  case badInput = 5
  case io = 6
  case remote = 7

  /// What the status means, in one line.
  public var meaning: String {
    switch self {
    case .success:
      "done"
    case .nothingAvailable:
      "nothing there: an empty pasteboard or input, a type the copy does not have, no such history entry or "
        + "type, no history, a drag not taken"
    case .usage:
      "usage: an unknown option, a malformed value (of an option, an environment variable or the configuration "
        + "file), an unknown type or pasteboard name"
    case .noDisplayNoBroker:
      "no display and no broker: nothing to copy to or paste from; no broker for a command that needs one; no "
        + "display for a window, or it went away"
    case .timeout:
      "timeout: a peer did not answer in time (an X owner, the broker, a drop target, a broker asked to stop)"
    case .badInput:
      "bad input: not what its type says (not UTF-8 given as text; not a document or declaration file), or a "
        + "copy OSC 52 cannot carry (not text, too long)"
    case .io:
      "I/O: a file or the terminal could not be read or written, an input went on past 1 GiB, the broker's "
        + "socket is not safely yours, or the broker failed"
    case .remote:
      "remote: `ferry sync` could not reach the other machine or was refused there (ssh failed, no ferry or "
        + "no broker there, bytes before the handshake)"
    }
  }

  /// The "Exit status:" paragraph of every tool's `--help`: one entry per status, wrapped
  /// to 78 columns under its meaning (the argument parser rewraps lines of 80 or more).
  public static var helpText: String {
    var lines = ["Exit status:"]
    for status in allCases {
      var line = "  \(status.rawValue)  "
      let indent = String(repeating: " ", count: line.count)
      for word in status.meaning.split(separator: " ") {
        if line.count + word.count > 78 {
          lines.append(String(line.dropLast()))
          line = indent
        }
        line += word + " "
      }
      lines.append(String(line.dropLast()))
    }
    return lines.joined(separator: "\n")
  }
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
