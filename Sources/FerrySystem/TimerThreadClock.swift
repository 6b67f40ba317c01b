/// The continuous clock, with sleeps that one POSIX thread of ours ends instead of Dispatch.
///
/// `Task.sleep` on `ContinuousClock` schedules its wake-up on Dispatch's global queues,
/// whatever executor the task runs on. On Linux the first job of Dispatch's worker pool
/// starts libdispatch's pool monitor, a timer that wakes the process every second for as
/// long as it lives; and a cancelled sleep's timer still fires at its deadline. The broker,
/// which should not wake while nothing happens, sleeps on this clock: a sleep costs a
/// wake-up of the timer thread when it starts, ends or is cancelled, and nothing else
/// (docs/PERFORMANCE.md, "Daemon at rest").
///
/// ```swift
/// try await Task.sleep(for: .seconds(2), clock: .timerThread)
/// ```
public struct TimerThreadClock: Clock, Sendable {
  /// The instants of `ContinuousClock`: the two clocks read the same time.
  public typealias Instant = ContinuousClock.Instant

  /// The clock.
  public init() {}

  /// The current instant of `ContinuousClock`.
  public var now: Instant { .now }

  /// A millisecond: the timer thread waits in `poll(2)`, whose timeout counts milliseconds.
  public var minimumResolution: Duration { .milliseconds(1) }

  /// Suspends the task until `deadline` (or a little after: the wait is rounded up to the
  /// millisecond).
  ///
  /// - Parameter tolerance: Ignored.
  /// - Throws: `CancellationError` when the task is cancelled, ``TimerThreadError`` when
  ///   the timer thread cannot be started.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await TimerThread.shared.sleep(until: deadline)
  }
}

extension Clock where Self == TimerThreadClock {
  /// The continuous clock whose sleeps end on the timer thread: see ``TimerThreadClock``.
  public static var timerThread: TimerThreadClock { TimerThreadClock() }
}
