import FerryTestSupport
import Testing

@testable import FerrySystem

#if canImport(Glibc)
  import Glibc
#endif

/// The timer thread's sleeps end, and end early when cancelled, leaving nothing behind: a
/// sleep left in the thread's table would wake it later for nobody.
///
/// Each count is taken in a process of its own (an exit test): the timer thread is the
/// process's, and in the test process every other test's time limits sleep on it too (a
/// clean-clone run once counted another test's sleeper here).
@Suite struct TimerThreadClockTests {
  @Test func aSleepEnds() async {
    await #expect(processExitsWith: .success) {
      try await Task.sleep(for: .milliseconds(1), clock: .timerThread)
      exit(TimerThread.shared.sleeperCount == 0 ? 0 : 1)
    }
  }

  @Test func manySleepsAllEndAndLeaveNothing() async {
    await #expect(processExitsWith: .success) {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<50 {
          group.addTask { try await Task.sleep(for: .milliseconds(index % 7), clock: .timerThread) }
        }
        try await group.waitForAll()
      }
      exit(TimerThread.shared.sleeperCount == 0 ? 0 : 1)
    }
  }

  @Test func aCancelledSleepThrowsAtOnceAndLeavesNothing() async {
    await #expect(processExitsWith: .success) {
      let sleeper = Task { try await Task.sleep(for: .seconds(3600), clock: .timerThread) }
      guard await Deadline.wait(for: .seconds(10), { TimerThread.shared.sleeperCount == 1 }) else {
        exit(2)
      }
      sleeper.cancel()
      guard case .failure(let error) = await sleeper.result, error is CancellationError else {
        exit(3)
      }
      exit(TimerThread.shared.sleeperCount == 0 ? 0 : 1)
    }
  }

  @Test func aSleepOfACancelledTaskThrowsWithoutWaiting() async {
    await #expect(processExitsWith: .success) {
      let sleeper = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        try await Task.sleep(for: .seconds(3600), clock: .timerThread)
      }
      guard case .failure(let error) = await sleeper.result, error is CancellationError else {
        exit(3)
      }
      exit(TimerThread.shared.sleeperCount == 0 ? 0 : 1)
    }
  }

  @Test func theClockReadsTheContinuousClocksTime() {
    let before = ContinuousClock.now
    let now = TimerThreadClock().now
    #expect(now >= before && now <= ContinuousClock.now)
  }
}
