@testable import X11Selections

extension X11Display {
  /// Returns once the X thread has looked at its timers since this call began: a job runs
  /// before the loop's timer pass, so the second of two jobs runs after one.
  func settleTimers() async throws {
    for _ in 0..<2 { try await loop.perform { _ in } }
  }
}
