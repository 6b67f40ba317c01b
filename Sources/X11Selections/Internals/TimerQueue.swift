import FoundationEssentials

/// The X thread's pending deadlines: actions to run once a clock reaches a time.
///
/// A value with no clock of its own: the caller says what time it is, so the order and the
/// wait are tested without waiting.
struct TimerQueue<Action> {
  private var timers: [UUID: (deadline: Duration, action: Action)] = [:]

  /// Whether nothing is scheduled.
  var isEmpty: Bool { timers.isEmpty }

  /// Schedules `action` for `deadline`; the id cancels it.
  mutating func schedule(at deadline: Duration, _ action: Action) -> UUID {
    let id = UUID()
    timers[id] = (deadline, action)
    return id
  }

  /// Forgets the timer `id`, if it has not run.
  mutating func cancel(_ id: UUID) {
    timers[id] = nil
  }

  /// Removes and returns every action due at `now`, earliest deadline first.
  mutating func takeDue(at now: Duration) -> [Action] {
    let due = timers.filter { $0.value.deadline <= now }.sorted {
      $0.value.deadline < $1.value.deadline
    }
    for (id, _) in due { timers[id] = nil }
    return due.map(\.value.action)
  }

  /// How long from `now` until the earliest deadline: zero when one is due, `nil` for none.
  func timeToNextDeadline(from now: Duration) -> Duration? {
    guard let next = timers.values.map(\.deadline).min() else { return nil }
    return max(next - now, .zero)
  }
}
