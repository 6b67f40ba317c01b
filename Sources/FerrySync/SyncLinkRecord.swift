import FerryProtocol
import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One link's standing as `ferry status` shows it, kept across its reconnects, and the origin
/// both sides last agreed on, which the reconnect rule compares.
public final class SyncLinkRecord: Sendable {
  private struct State {
    var status: SyncLinkStatus
    var lastSynced: ItemOrigin?
  }

  private let state: TrackedMutex<State>

  /// A record for the link to `host`, connecting now.
  public init(host: String) {
    state = TrackedMutex(
      State(status: SyncLinkStatus(host: host, state: "connecting", since: Self.now)))
  }

  /// The host as the user named it.
  public var host: String { state.withLock { $0.status.host } }

  /// The status now.
  public var status: SyncLinkStatus { state.withLock { $0.status } }

  /// The origin both sides last agreed on.
  public var lastSynced: ItemOrigin? {
    get { state.withLock { $0.lastSynced } }
    set { state.withLock { $0.lastSynced = newValue } }
  }

  /// Moves the link to `name` (`connected`, `reconnecting`, …), keeping `since` when the state
  /// does not change.
  public func enter(_ name: String, error: String? = nil, retryAt: Double? = nil) {
    state.withLock { state in
      if state.status.state != name { state.status.since = Self.now }
      state.status.state = name
      if let error { state.status.error = error }
      state.status.retryAt = retryAt
    }
  }

  /// Changes the status.
  public func update(_ change: (inout SyncLinkStatus) -> Void) {
    state.withLock { change(&$0.status) }
  }

  /// Counts an item not sent for `reason`.
  public func skipped(_ reason: SyncFilter.Reason) {
    state.withLock { $0.status.skipped[reason.rawValue, default: 0] += 1 }
  }

  /// Seconds since 1970, for display.
  static var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
