import Foundation

/// Waiting for a condition with a deadline, never a bare sleep: the one wait of the tests.
///
/// From async code the compiler picks an `async` form, which sleeps between looks without
/// holding a thread of Swift concurrency's pool (one per core, two on the project's
/// machines): the blocking form there would starve the code under test, which needs those
/// threads to make the condition true. The blocking form is for synchronous code only (a
/// synchronous test, a thread of its own), and is unavailable from async code.
///
/// ```swift
/// #expect(await Deadline.wait(for: .seconds(10)) { fixture.spooledFiles().isEmpty })
/// ```
public enum Deadline {
  /// Polls `condition` every few milliseconds, blocking the calling thread, until it holds or
  /// `limit` passes.
  ///
  /// - Returns: Whether the condition held in time.
  @available(*, noasync, message: "blocks a thread of the concurrency pool; await the async form")
  @discardableResult
  public static func wait(for limit: Duration, _ condition: () -> Bool) -> Bool {
    let end = ContinuousClock.now + limit
    var pause = 2
    while ContinuousClock.now < end {
      if condition() { return true }
      usleep(UInt32(pause * 1000))
      pause = min(pause * 2, 50)
    }
    return condition()
  }

  /// The async form of the blocking wait, for a synchronous condition: what an async
  /// caller's `Deadline.wait(for:) { … }` calls.
  ///
  /// - Returns: Whether the condition held in time.
  @discardableResult
  public static func wait(for limit: Duration, _ condition: () -> Bool) async -> Bool {
    await wait(for: limit) { () async -> Bool in condition() }
  }

  /// Polls `condition` every few milliseconds, sleeping in between without holding a thread,
  /// until it holds or `limit` passes.
  ///
  /// - Returns: Whether the condition held in time.
  @discardableResult
  public static func wait(for limit: Duration, _ condition: () async -> Bool) async -> Bool {
    let end = ContinuousClock.now + limit
    var pause = 2
    while ContinuousClock.now < end {
      if await condition() { return true }
      try? await Task.sleep(for: .milliseconds(pause))
      pause = min(pause * 2, 50)
    }
    return await condition()
  }
}
