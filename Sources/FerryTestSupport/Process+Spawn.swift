import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Process {
  /// Starts the process with no signal blocked, and has it (and what it starts) ended with
  /// the test process by ``ProcessKeeper``.
  ///
  /// posix_spawn(3) passes the calling thread's signal mask on to the child, and Foundation does
  /// not reset it. Tests start peers from Dispatch and Swift concurrency threads, which block
  /// nearly every signal, so a peer started there ignores SIGTERM for its whole life (`kill()`
  /// then waits out its timeout, and `terminate()` leaves the peer running after the tests).
  /// Spawning from a short-lived thread with an empty mask gives the child the default.
  public func runWithDefaultSignals() throws {
    try spawnUnblocked()
    ProcessKeeper.keep(groupOf: processIdentifier)
  }

  /// Starts the process from a thread with an empty signal mask.
  func spawnUnblocked() throws {
    let outcome = SpawnOutcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      var none = sigset_t()
      sigemptyset(&none)
      pthread_sigmask(SIG_SETMASK, &none, nil)
      do { try run() } catch { outcome.error = error }
      done.signal()
    }
    thread.start()
    done.wait()
    if let error = outcome.error { throw error }
  }
}

/// The error of a spawn, handed from the spawning thread to the caller (which waits on a
/// semaphore between the two accesses).
private final class SpawnOutcome: @unchecked Sendable {
  var error: (any Error)?
}
