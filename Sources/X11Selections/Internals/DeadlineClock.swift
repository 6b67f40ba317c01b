import FoundationEssentials

/// The time in which the X thread measures its deadlines: protocol step timeouts, stalled
/// transfers, the drag source's timers.
///
/// The real one is `ContinuousClock`. A test gives ``X11Display/init(name:clock:)`` a clock
/// of its own and moves it forward, so a five-second timeout is reached without waiting five
/// seconds.
struct DeadlineClock: Sendable {
  /// The time since this clock's origin.
  let now: @Sendable () -> Duration
  /// Whether real time passes at this clock's rate, so poll(2) may sleep until the next
  /// deadline. A clock that moves only when told is instead looked at every
  /// ``manualClockPollInterval``.
  let followsRealTime: Bool

  /// How often the X thread looks at a clock that does not follow real time, while a
  /// deadline is pending.
  static let manualClockPollInterval: Duration = .milliseconds(10)

  /// The real clock.
  static let continuous = DeadlineClock(ContinuousClock())

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let origin = clock.now
    now = { origin.duration(to: clock.now) }
    followsRealTime = clock is ContinuousClock || clock is SuspendingClock
  }
}
