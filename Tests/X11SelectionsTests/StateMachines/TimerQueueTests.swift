import Testing

@testable import X11Selections

/// The X thread's deadlines as a value: what is due when, in which order, and how long
/// poll(2) may sleep.
@Suite struct TimerQueueTests {
  @Test func dueActionsComeEarliestFirstAndOnlyOnce() {
    var queue = TimerQueue<String>()
    _ = queue.schedule(at: .seconds(3), "third")
    _ = queue.schedule(at: .seconds(1), "first")
    _ = queue.schedule(at: .seconds(2), "second")
    _ = queue.schedule(at: .seconds(9), "later")
    #expect(queue.takeDue(at: .milliseconds(999)).isEmpty)
    #expect(queue.takeDue(at: .seconds(3)) == ["first", "second", "third"])
    #expect(queue.takeDue(at: .seconds(3)).isEmpty, "an action runs once")
    #expect(!queue.isEmpty)
    #expect(queue.takeDue(at: .seconds(9)) == ["later"])
    #expect(queue.isEmpty)
  }

  @Test func aCancelledTimerNeverComesDue() {
    var queue = TimerQueue<Int>()
    let cancelled = queue.schedule(at: .seconds(1), 1)
    _ = queue.schedule(at: .seconds(2), 2)
    queue.cancel(cancelled)
    #expect(queue.takeDue(at: .seconds(5)) == [2])
  }

  @Test func theWaitIsToTheEarliestDeadlineAndNeverNegative() {
    var queue = TimerQueue<Int>()
    #expect(queue.timeToNextDeadline(from: .zero) == nil, "nothing pending: wait for events only")
    _ = queue.schedule(at: .seconds(5), 5)
    _ = queue.schedule(at: .milliseconds(1500), 1)
    #expect(queue.timeToNextDeadline(from: .seconds(1)) == .milliseconds(500))
    #expect(queue.timeToNextDeadline(from: .seconds(2)) == .zero, "overdue is due now")
  }
}
