import Testing

@testable import FerrySystem

/// The timer thread's sleeps end, and end early when cancelled, leaving nothing behind: a
/// sleep left in the thread's table would wake it later for nobody.
///
/// Serialized: the tests count the process's one timer thread's sleepers.
@Suite(.serialized) struct TimerThreadClockTests {
  @Test func aSleepEnds() async throws {
    try await Task.sleep(for: .milliseconds(1), clock: .timerThread)
    #expect(TimerThread.shared.sleeperCount == 0)
  }

  @Test func manySleepsAllEndAndLeaveNothing() async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<50 {
        group.addTask { try await Task.sleep(for: .milliseconds(index % 7), clock: .timerThread) }
      }
      try await group.waitForAll()
    }
    #expect(TimerThread.shared.sleeperCount == 0)
  }

  @Test func aCancelledSleepThrowsAtOnceAndLeavesNothing() async throws {
    let sleeper = Task { try await Task.sleep(for: .seconds(3600), clock: .timerThread) }
    try await waitUntil { TimerThread.shared.sleeperCount == 1 }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(TimerThread.shared.sleeperCount == 0)
  }

  @Test func aSleepOfACancelledTaskThrowsWithoutWaiting() async {
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await Task.sleep(for: .seconds(3600), clock: .timerThread)
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(TimerThread.shared.sleeperCount == 0)
  }

  @Test func theClockReadsTheContinuousClocksTime() {
    let before = ContinuousClock.now
    let now = TimerThreadClock().now
    #expect(now >= before && now <= ContinuousClock.now)
  }

  /// Waits (yielding) until `condition` holds; fails after ten seconds.
  private func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      try #require(ContinuousClock.now < deadline, "the condition never held")
      await Task.yield()
    }
  }
}
