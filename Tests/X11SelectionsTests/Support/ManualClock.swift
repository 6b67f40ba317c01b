import Synchronization
@testable import X11Selections

/// A clock that moves only when a test says so: a display opened with it reaches a
/// five-second timeout when the test advances it five seconds, not after five real seconds.
final class ManualClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    /// Time since the clock was made.
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  var now: Instant { state.withLock { $0.now } }
  var minimumResolution: Duration { .nanoseconds(1) }

  /// Moves the clock forward by `duration`, waking the sleepers it reaches.
  func advance(by duration: Duration) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.map(\.continuation)
    }
    woken.forEach { $0.resume() }
  }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        guard deadline > state.now else { return true }
        state.sleepers.append((deadline, continuation))
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }
}

extension X11Display {
  /// Returns once the X thread has looked at its timers since this call began: a job runs
  /// before the loop's timer pass, so the second of two jobs runs after one.
  func settleTimers() async throws {
    for _ in 0..<2 { try await loop.perform { _ in } }
  }
}
