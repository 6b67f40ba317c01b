import Synchronization

/// Waiting for a task with a deadline, without waiting for the task to notice cancellation.
enum TimeLimit {
  /// The value of `task`, or `timeoutError()` thrown once `limit` has passed. The task is
  /// not cancelled here; the caller decides.
  static func value<Value: Sendable>(
    of task: Task<Value, any Error>, within limit: Duration,
    timeoutError: @escaping @Sendable () -> any Error
  ) async throws -> Value {
    let settled = Mutex(false)
    return try await withCheckedThrowingContinuation { continuation in
      let resume: @Sendable (Result<Value, any Error>) -> Void = { result in
        let first = settled.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(with: result) }
      }
      let waiter = Task {
        do { resume(.success(try await task.value)) } catch { resume(.failure(error)) }
      }
      Task {
        try? await Task.sleep(for: limit)
        resume(.failure(timeoutError()))
        waiter.cancel()
      }
    }
  }
}
