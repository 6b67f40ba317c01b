/// One POSIX thread that resumes sleeping tasks at their deadlines: the timers behind
/// ``TimerThreadClock``.
///
/// The thread starts with the first sleep and then waits in `poll(2)` on a wake-up pipe, with
/// the earliest deadline as its timeout, or none when nobody sleeps: while nothing sleeps it
/// never wakes. A new sleep and a cancelled one wake it so that it waits for the right
/// deadline — a cancelled hour-long sleep leaves no wake-up behind.
///
/// ```swift
/// try await TimerThread.shared.sleep(until: .now + .seconds(5))
/// ```
final class TimerThread: Sendable {
  /// The process's timer thread.
  static let shared = TimerThread()

  /// A sleep, from its start to its end.
  private enum Sleeper {
    /// Being set up: its continuation is not there yet.
    case starting
    /// Cancelled while being set up: it ends as soon as its continuation is there.
    case cancelled
    /// Waiting for its deadline.
    case waiting(ContinuousClock.Instant, CheckedContinuation<Void, any Error>)
  }

  private struct State {
    var sleepers: [UInt64: Sleeper] = [:]
    var lastID: UInt64 = 0
    /// Whether the thread was started (or its start failed: see `started`).
    var started = false
  }

  private let state = TrackedMutex(State())
  /// A pipe: a byte written to `wakeWriter` wakes the thread to look at its sleepers again.
  /// `nil` when no pipe could be made; sleeps then fail.
  private let wake: (reader: FileDescriptor, writer: FileDescriptor)?

  private init() {
    do throws(Errno) {
      let pipe = try FileDescriptor.closeOnExecPipe()
      try pipe.readEnd.setNonBlocking()
      try pipe.writeEnd.setNonBlocking()
      wake = (pipe.readEnd, pipe.writeEnd)
    } catch {
      wake = nil
    }
  }

  /// Suspends the calling task until `deadline`.
  ///
  /// - Throws: `CancellationError` as soon as the task is cancelled;
  ///   ``TimerThreadError`` when the thread or its pipe cannot be made.
  func sleep(until deadline: ContinuousClock.Instant) async throws {
    let id = state.withLock { state -> UInt64 in
      state.lastID += 1
      state.sleepers[state.lastID] = .starting
      return state.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome = state.withLock { state -> Result<Bool, any Error> in
          guard case .starting = state.sleepers[id] else {
            state.sleepers[id] = nil
            return .failure(CancellationError())
          }
          guard startIfNeeded(&state) else {
            state.sleepers[id] = nil
            return .failure(TimerThreadError.cannotStart)
          }
          state.sleepers[id] = .waiting(deadline, continuation)
          return .success(true)
        }
        switch outcome {
        case .success: wakeThread()
        case .failure(let error): continuation.resume(throwing: error)
        }
      }
    } onCancel: {
      let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        switch state.sleepers[id] {
        case .starting:
          state.sleepers[id] = .cancelled
          return nil
        case .waiting(_, let continuation):
          state.sleepers[id] = nil
          return continuation
        case .cancelled, nil:
          return nil  // already over
        }
      }
      if let waiting {
        waiting.resume(throwing: CancellationError())
        wakeThread()
      }
    }
  }

  /// The number of sleeps in progress (for tests).
  var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Starts the thread unless it runs; whether it does.
  private func startIfNeeded(_ state: inout State) -> Bool {
    guard let wake else { return false }
    if state.started { return true }
    state.started = DetachedThread.start(name: "ferry-timers") { [self] in
      run(wakeReader: wake.reader)
    }
    return state.started
  }

  private func wakeThread() {
    _ = try? wake?.writer.writeAll([UInt8(1)])
  }

  /// The thread: resumes the sleepers whose deadline has passed, then waits for the next
  /// deadline or a wake-up.
  private func run(wakeReader: FileDescriptor) {
    var entries = [PollEntry(wakeReader, for: .readable)]
    var drain = [UInt8](repeating: 0, count: 64)
    while true {
      let (due, next) = state.withLock {
        state -> ([CheckedContinuation<Void, any Error>], ContinuousClock.Instant?) in
        let now = ContinuousClock.now
        var due: [CheckedContinuation<Void, any Error>] = []
        var next: ContinuousClock.Instant?
        for (id, sleeper) in state.sleepers {
          guard case .waiting(let deadline, let continuation) = sleeper else { continue }
          if deadline <= now {
            due.append(continuation)
            state.sleepers[id] = nil
          } else {
            next = min(next ?? deadline, deadline)
          }
        }
        return (due, next)
      }
      for continuation in due { continuation.resume() }
      _ = try? Poll.wait(&entries, until: next)
      if entries[0].isReady {
        while ((try? drain.withUnsafeMutableBytes { try wakeReader.read(into: $0) }) ?? 0) > 0 {}
      }
    }
  }
}

/// Why a ``TimerThreadClock`` sleep could not wait.
public enum TimerThreadError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The timer thread or its wake-up pipe could not be made (out of threads or descriptors).
  case cannotStart

  /// One line naming the problem.
  public var description: String { "the timer thread could not be started" }
}
