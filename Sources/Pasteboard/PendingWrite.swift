import FerrySystem

/// A write announced with ``Pasteboard/announceWrite()``; ``finish()`` ends the announcement.
///
/// Finishing twice is harmless, and an announcement that is dropped unfinished finishes
/// itself, so a reader can never wait on a write that will not come.
public final class PendingWrite: Sendable {
  private let end: TrackedMutex<(@Sendable () -> Void)?>

  init(end: @escaping @Sendable () -> Void) {
    self.end = TrackedMutex(end)
  }

  deinit {
    finish()
  }

  /// Ends the announcement: readers waiting in ``Pasteboard/settle(within:)`` go on once no
  /// other write is pending.
  public func finish() {
    end.withLock { $0.take() }?()
  }
}
