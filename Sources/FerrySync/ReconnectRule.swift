import FerryProtocol

/// What a link does when it comes up, from both sides' current items and the one they last
/// agreed on (docs/SYNC.md, "The conflict rule"): a reconnect never overwrites what a user
/// copied while the machines were apart.
public enum ReconnectRule: Sendable, Hashable {
  /// Both hold the same copy, or neither changed.
  case inSync
  /// Only this side changed: it offers its item.
  case offerOurs
  /// Only the other side changed: it offers its item.
  case takeTheirs
  /// Both changed: neither is overwritten until the next copy.
  case diverged

  /// The rule for `ours` and `theirs` (the current items' origins) since `lastSynced`.
  public init(ours: ItemOrigin?, theirs: ItemOrigin?, lastSynced: ItemOrigin?) {
    if ours == theirs {
      self = .inSync
      return
    }
    let oursChanged = ours != nil && ours != lastSynced
    let theirsChanged = theirs != nil && theirs != lastSynced
    switch (oursChanged, theirsChanged) {
    case (true, false): self = .offerOurs
    case (false, true): self = .takeTheirs
    case (true, true): self = .diverged
    case (false, false): self = .inSync
    }
  }
}
