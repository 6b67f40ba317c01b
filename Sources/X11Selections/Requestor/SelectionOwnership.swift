/// Who owned a selection, and since when: the owner a capture asks, and the time its requests
/// carry.
///
/// ICCCM §2.2: an owner refuses a request whose time is earlier than the time it took the
/// selection. A capture's requests carry the time its owner took the selection, so an owner
/// that took it after them refuses what was meant for the one before.
public struct SelectionOwnership: Sendable, Hashable {
  /// The owner's window.
  public var window: XWindow
  /// When it took the selection, as XFixes reported it; `.current` when not known.
  public var since: XTimestamp

  /// Creates an ownership.
  public init(window: XWindow, since: XTimestamp = .current) {
    self.window = window
    self.since = since
  }
}
