/// How long the broker waits before each attempt to connect again to a display server that
/// went away: 100 ms, doubling, at most 5 s — back within a second of a quick restart
/// (Xwayland started again on demand, a compositor restarted), and one cheap attempt every
/// 5 s while it stays away (a nested session's X server that is gone for good).
struct ReconnectionBackoff: Sendable, Equatable {
  /// The wait before the first attempt.
  var first: Duration = .milliseconds(100)
  /// The longest wait.
  var longest: Duration = .seconds(5)

  /// The wait before attempt `attempt` (1 for the first): `first`, doubled each attempt up to
  /// `longest`.
  func delay(beforeAttempt attempt: Int) -> Duration {
    var delay = first
    for _ in 1..<max(attempt, 1) {
      delay *= 2
      if delay >= longest { return longest }
    }
    return min(delay, longest)
  }
}
