import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why a converter command failed: which program, what happened, and what it said.
///
/// By the time this is thrown the program has been killed if it had to be, and reaped: its
/// ``processID`` names no process any more.
///
/// ```swift
/// do {
///   _ = try await converter.convert(payload, from: .json, to: .html)
/// } catch let error as CommandConverterError {
///   print(error)   // /usr/bin/python3 exited with status 1: KeyError: 'name'
/// }
/// ```
public struct CommandConverterError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public enum Reason: Hashable, Sendable {
    /// The program is not an executable file, or not found in `PATH`.
    case executableNotFound
    /// The program could not be started; the reason names the failing call.
    case launchFailed(String)
    /// The file payload could not be read.
    case inputUnreadable(String)
    /// The program exited with a non-zero status.
    case exited(status: Int32)
    /// The program was killed by a signal it did not get from us.
    case signalled(Int32)
    /// The program ran past its time limit and was killed.
    case timedOut(Duration)
    /// The program printed more than the limit, in bytes, and was killed.
    case outputTooLarge(limit: Int)
    /// The program's exit status was collected by someone else in this process.
    case statusUnknown
  }

  /// The argument vector that ran.
  public let command: [String]
  /// What went wrong.
  public let reason: Reason
  /// The program's process ID, when it was started.
  public let processID: Int32?
  /// The first non-blank line of the program's standard error; empty when it printed none.
  public let standardError: String

  /// Creates an error.
  public init(
    command: [String], reason: Reason, processID: Int32? = nil, standardError: String = ""
  ) {
    self.command = command
    self.reason = reason
    self.processID = processID
    self.standardError = standardError
  }

  /// One line naming the program and what happened.
  public var description: String {
    let program = command.first ?? "the command"
    let said = standardError.isEmpty ? "" : ": \(standardError)"
    switch reason {
    case .executableNotFound:
      return program.contains("/")
        ? "\(program) is not an executable file"
        : "cannot find the program \(program) in PATH"
    case .launchFailed(let reason):
      return "cannot start \(program): \(reason)"
    case .inputUnreadable(let reason):
      return "cannot read the input for \(program): \(reason)"
    case .exited(let status):
      return "\(program) exited with status \(status)\(said)"
    case .signalled(let signal):
      return
        "\(program) was killed by signal \(signal) (\(String(cString: strsignal(signal))))\(said)"
    case .timedOut(let limit):
      return "\(program) ran longer than \(Self.seconds(limit)) s and was killed"
    case .outputTooLarge(let limit):
      return "\(program) printed more than \(limit) bytes and was killed"
    case .statusUnknown:
      return "\(program) ended, but its exit status was collected elsewhere in this process"
    }
  }

  private static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return String(seconds) }
    return String(Double(seconds) + Double(attoseconds) / 1e18)
  }
}
