import Foundation

/// Waiting for a condition with a deadline, never a bare sleep.
public enum Deadline {
  /// Polls `condition` every few milliseconds until it holds or `limit` passes.
  ///
  /// - Returns: Whether the condition held in time.
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

  /// The async form of ``wait(for:_:)``.
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
