/// An event on a selection: someone took it, or its owner went away.
public struct OwnerChange: Sendable, Equatable {
  /// What happened.
  public enum Kind: Sendable, Equatable {
    /// A client took the selection.
    case newOwner
    /// The owner went away (X11: its window was destroyed or its client closed) and the
    /// selection has no owner now.
    case ownerGone
  }

  /// The selection.
  public var role: SelectionRole
  /// What happened.
  public var kind: Kind
  /// The owner that took the selection, or the one that went away.
  public var owner: OwnerToken
  /// Whether the owner is this process: the backend serving one of its own copies.
  public var isOwnedByThisProcess: Bool

  /// Creates an event.
  public init(role: SelectionRole, kind: Kind, owner: OwnerToken, isOwnedByThisProcess: Bool) {
    self.role = role
    self.kind = kind
    self.owner = owner
    self.isOwnedByThisProcess = isOwnedByThisProcess
  }
}
