import FerrySystem
import Foundation

/// A clock that moves only when a test advances it: a timeout or a delay measured on it is
/// reached by `advance(by:)`, not by waiting (the autosaver's delay, the X thread's step
/// timeouts).
public final class ManualClock: Clock, Sendable {
  /// A point in the clock's time: how far it has been advanced.
  public struct Instant: InstantProtocol {
    /// The time advanced since the clock was made.
    public var offset: Duration

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [UUID: Sleeper] = [:]
    var cancelled: Set<UUID> = []
  }

  private let state = TrackedMutex(State())

  /// A clock at time zero.
  public init() {}

  /// The clock's time now.
  public var now: Instant { state.withLock { $0.now } }
  /// Any duration: the clock moves only by `advance(by:)`.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Waits until the clock has been advanced to `deadline`.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = UUID()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow: Result<Void, any Error>? = state.withLock { state in
          if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return nil
        }
        if let resumeNow { continuation.resume(with: resumeNow) }
      }
    } onCancel: {
      let sleeper = state.withLock { state in
        guard let sleeper = state.sleepers.removeValue(forKey: id) else {
          state.cancelled.insert(id)
          return Sleeper?.none
        }
        return sleeper
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock on, waking every sleeper whose deadline has come.
  public func advance(by duration: Duration) {
    let woken = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for id in due.keys { state.sleepers[id] = nil }
      return due.values.map(\.continuation)
    }
    for continuation in woken { continuation.resume() }
  }
}
