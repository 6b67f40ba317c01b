import Foundation

/// Blocking work on a thread of its own, never on Swift concurrency's pool.
///
/// The pool has one thread per core, two on the project's machines: a test that blocks one
/// (waiting for a process, polling a directory) starves every other test's tasks into
/// timeouts. Expectations stay in the test's own task: an issue recorded on another thread
/// belongs to no test.
///
/// ```swift
/// let result = try await OwnThread.run { try PeerProcess.run(["sleep", "1"], display: nil) }
/// #expect(result.status == 0)
/// ```
public enum OwnThread {
  /// Runs `body` on a new thread and returns what it returns.
  public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
  }
}
