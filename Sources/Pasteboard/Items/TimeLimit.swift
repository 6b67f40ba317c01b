import FerrySystem

/// Waiting for a task with a deadline, without waiting for the task to notice cancellation.
enum TimeLimit {
  /// The value of `task`, or `timeoutError()` thrown once `limit` has passed. The task is
  /// not cancelled here; the caller decides.
  ///
  /// The timer is cancelled as soon as the value arrives: a lazy representation's limit is an
  /// hour, and a timer left sleeping that long kept its closures (and what they hold) alive
  /// for the hour, about 5 KB for every read of a lazy representation.
  static func value<Value: Sendable>(
    of task: Task<Value, any Error>, within limit: Duration,
    timeoutError: @escaping @Sendable () -> any Error
  ) async throws -> Value {
    let settled = TrackedMutex(false)
    let timer = TrackedMutex<Task<Void, Never>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
      let resume: @Sendable (Result<Value, any Error>) -> Void = { result in
        let first = settled.withLock { done in
          defer { done = true }
          return !done
        }
        guard first else { return }
        continuation.resume(with: result)
        // Cancelled and let go: the timer's closure holds this one, which holds the timer.
        timer.withLock { timer in
          timer?.cancel()
          timer = nil
        }
      }
      // Both on the production threads: a starved global pool must not hold the answer.
      let waiter = Task(executorPreference: ProductionExecutor.shared) {
        do { resume(.success(try await task.value)) } catch { resume(.failure(error)) }
      }
      let sleeper = Task(executorPreference: ProductionExecutor.shared) {
        do { try await Task.sleep(for: limit, clock: .timerThread) } catch { return }  // cancelled: the value came first
        resume(.failure(timeoutError()))
        waiter.cancel()
      }
      let late = settled.withLock { done in
        if !done { timer.withLock { $0 = sleeper } }
        return done
      }
      if late { sleeper.cancel() }  // the value came before the timer was stored
    }
  }
}
