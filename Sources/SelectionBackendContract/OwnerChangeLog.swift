import FerryTestSupport
import SelectionBackendCore

/// Every owner change a backend reports while the log runs, collected off a stream so that a
/// check waits for one with a deadline instead of a `next()` that may never return.
final class OwnerChangeLog: Sendable {
  private let changes: Shared<[OwnerChange]>
  private let task: Task<Void, Never>

  /// Starts collecting `stream`.
  init(_ stream: AsyncStream<OwnerChange>) {
    let changes = Shared<[OwnerChange]>([])
    self.task = Task {
      for await change in stream { changes.withLock { $0.append(change) } }
    }
    self.changes = changes
  }

  deinit { task.cancel() }

  /// The changes so far.
  var all: [OwnerChange] { changes.withLock { $0 } }

  /// The first change after `skipping` changes that satisfies `predicate`, waited for up to
  /// `limit`.
  func first(
    after skipping: Int = 0, within limit: Duration = .seconds(10),
    where predicate: @escaping @Sendable (OwnerChange) -> Bool
  ) async -> OwnerChange? {
    var found: OwnerChange?
    _ = await Deadline.wait(for: limit) {
      found = all.dropFirst(skipping).first(where: predicate)
      return found != nil
    }
    return found
  }
}

/// A value behind a lock that closures share by reference (a noncopyable mutex cannot be
/// captured by an escaping closure): an `onLost` count, a driver's "done" flag.
public final class Shared<Value: Sendable>: Sendable {
  private let value: TrackedMutex<Value>

  /// A shared `initial`.
  public init(_ initial: Value) { value = TrackedMutex(initial) }

  /// Runs `body` with the value locked.
  public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    value.withLock { body(&$0) }
  }

  /// The value now.
  public var current: Value { withLock { $0 } }
}
