import FerryTestSupport
import Foundation
import Synchronization
import Testing

@testable import Pasteboard

/// A time limit costs nothing once the value is in: its timer ends with it.
@Suite struct TimeLimitTests {
  /// Something to watch the end of through a weak reference.
  final class Tracker: Sendable {}

  /// The soak found every read of a lazy representation (limit: an hour) leaving ~5 KB
  /// behind: the timer slept on, holding its closures, for the hour.
  @Test func theTimerEndsWhenTheValueArrives() async throws {
    weak var watched: Tracker?
    do {
      let tracker = Tracker()
      watched = tracker
      let task = Task<Int, any Error> { 42 }
      let value = try await TimeLimit.value(of: task, within: .seconds(3600)) {
        _ = tracker  // held by the timeout's closure, as a provider's type and limit are
        return CancellationError()
      }
      #expect(value == 42)
    }
    let released = await Deadline.wait(for: .seconds(10)) { watched == nil }
    #expect(released, "the timer still holds its closure after the value came")
  }

  @Test func theLimitStillEndsAWaitForATaskThatNeverEnds() async throws {
    let task = Task<Int, any Error> {
      try await Task.sleep(for: .seconds(3600))  // a task that never ends by itself
      return 1
    }
    defer { task.cancel() }
    await #expect(throws: CancellationError.self) {
      try await TimeLimit.value(of: task, within: .milliseconds(50)) { CancellationError() }
    }
  }
}
