import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The forms of ``PeerProcess``'s waits for async code: each waits on a thread of its own
/// (`DetachedThread.run`), never on a thread of Swift concurrency's pool, which the code under
/// test needs. The blocking forms are unavailable from async code, so an async test cannot
/// call them by mistake; ``terminate(signal:)`` is what a `defer` (which cannot await) calls.
extension PeerProcess {
  /// Waits for the process to end, killing its group after `timeout`.
  public func finished(timeout: Duration = .seconds(30)) async -> Result {
    try! await DetachedThread.run { self.finish(timeout: timeout) }
  }

  /// Waits for `text` on standard output, or the process's end, or `timeout`.
  public func output(_ text: String, timeout: Duration = .seconds(15)) async -> Bool {
    (try? await DetachedThread.run { self.waitForOutput(text, timeout: timeout) }) ?? false
  }

  /// Sends `signal` to the process's group and waits for the process to end.
  public func stopped(signal: Int32 = SIGTERM) async -> Result {
    try! await DetachedThread.run { self.kill(signal: signal) }
  }

  /// Sends `signal` to the process's group without waiting: for a `defer`. The child's own
  /// waiter thread reaps it, and the keeper ends the group with the test process at worst.
  public func terminate(signal: Int32 = SIGTERM) {
    if process.isRunning { Glibc.kill(-process.processIdentifier, signal) }
  }
}
