import FerrySystem

/// Delivers a result once, whoever gets there first: to a continuation, or to a callback
/// (a caller waiting without async, such as `X11Display.readWaiting`).
package final class Once<T: Sendable>: Sendable {
  private struct Pending {
    var deliver: (@Sendable (Result<T, any Error>) -> Void)?
    var resolved: [@Sendable () -> Void] = []
  }

  private let pending: TrackedMutex<Pending>

  /// Delivers to `continuation`.
  package init(_ continuation: CheckedContinuation<T, any Error>) {
    pending = TrackedMutex(Pending(deliver: { continuation.resume(with: $0) }))
  }

  /// Delivers to `deliver`, on the thread that resolves it.
  package init(_ deliver: @escaping @Sendable (Result<T, any Error>) -> Void) {
    pending = TrackedMutex(Pending(deliver: deliver))
  }

  /// Calls `action` once this is resolved (at once if it already is).
  package func onResolved(_ action: @escaping @Sendable () -> Void) {
    let already = pending.withLock { pending -> Bool in
      guard pending.deliver != nil else { return true }
      pending.resolved.append(action)
      return false
    }
    if already { action() }
  }

  /// Delivers `result`, unless a result was delivered already.
  package func resume(with result: Result<T, any Error>) {
    let taken = pending.withLock {
      pending -> (
        deliver: @Sendable (Result<T, any Error>) -> Void, resolved: [@Sendable () -> Void]
      )? in
      guard let deliver = pending.deliver.take() else { return nil }
      defer { pending.resolved.removeAll() }
      return (deliver, pending.resolved)
    }
    guard let taken else { return }
    taken.deliver(result)
    taken.resolved.forEach { $0() }
  }

  /// Delivers `value`, unless a result was delivered already.
  package func resume(returning value: T) { resume(with: .success(value)) }
  /// Delivers `error`, unless a result was delivered already.
  package func resume(throwing error: any Error) { resume(with: .failure(error)) }
}
