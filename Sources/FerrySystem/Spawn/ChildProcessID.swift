import CFerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process this process started, by its process ID.
///
/// Until the child is reaped (``waitForExit()``) its ID, and its group's, cannot be given to
/// another process, so a signal sent before then reaches the child or nobody.
public struct ChildProcessID: RawRepresentable, Hashable, Sendable {
  /// The process ID.
  public let rawValue: pid_t

  /// Wraps a process ID.
  public init(rawValue: pid_t) { self.rawValue = rawValue }

  /// Sends `signal` to the child (`kill(2)`).
  ///
  /// - Throws: `Errno` (`ESRCH` when it has been reaped).
  public func send(_ signal: CInt) throws(Errno) {
    guard kill(rawValue, signal) == 0 else { throw Errno.last }
  }

  /// Sends `signal` to the process group the child leads (``ChildLaunch/Group/own``): the
  /// child and what it started.
  ///
  /// - Throws: `Errno` (`ESRCH` when the group has no process left).
  public func sendToGroup(_ signal: CInt) throws(Errno) {
    guard kill(-rawValue, signal) == 0 else { throw Errno.last }
  }

  /// Blocks until the child ends and reaps it (`waitpid(2)`, retried when interrupted).
  ///
  /// - Throws: `Errno` (`ECHILD` when someone else in this process reaped it).
  public func waitForExit() throws(Errno) -> Termination {
    var status: CInt = 0
    while waitpid(rawValue, &status, 0) != rawValue {
      let error = Errno.last
      guard error == .interrupted else { throw error }
    }
    return Termination(waitStatus: status)
  }

  /// Blocks until the child ends, leaving it unreaped (`waitid(2)` with `WNOWAIT`): its ID
  /// stays this process's until ``waitForExit()``.
  ///
  /// - Throws: `Errno` (`ECHILD` when someone else in this process reaped it).
  public func waitForExitWithoutReaping() throws(Errno) {
    var info = siginfo_t()
    while waitid(P_PID, id_t(rawValue), &info, WEXITED | WNOWAIT) != 0 {
      let error = Errno.last
      guard error == .interrupted else { throw error }
    }
  }

  /// Reaps the child if it has ended, without waiting (`waitpid(2)` with `WNOHANG`).
  ///
  /// - Returns: How it ended, or `nil` while it runs.
  /// - Throws: `Errno` (`ECHILD` when someone else in this process reaped it).
  public func reapIfEnded() throws(Errno) -> Termination? {
    var status: CInt = 0
    while true {
      let result = waitpid(rawValue, &status, WNOHANG)
      if result == rawValue { return Termination(waitStatus: status) }
      if result == 0 { return nil }
      let error = Errno.last
      guard error == .interrupted else { throw error }
    }
  }
}
