/// Who owns a selection, and since when: opaque values a backend hands out and compares.
///
/// Two tokens are the same ownership when both parts match (X11: the owner's window and the
/// server time it took the selection); ``isSameOwner(as:)`` compares the owner only. ``none``
/// stands for "nobody" and for the broker itself after it took a selection over.
public struct OwnerToken: Sendable, Hashable, CustomStringConvertible {
  /// The owner, as the backend identifies it (X11: the window id).
  public let owner: UInt64
  /// When it took the selection, as the backend counts time (X11: the server time).
  public let generation: UInt64

  /// Creates a token.
  public init(owner: UInt64, generation: UInt64) {
    self.owner = owner
    self.generation = generation
  }

  /// Nobody, or the broker itself.
  public static let none = OwnerToken(owner: 0, generation: 0)

  /// Whether `other` names the same owner, whenever it took the selection.
  public func isSameOwner(as other: OwnerToken) -> Bool { owner == other.owner }

  /// The owner in hexadecimal, as X11 tools print windows.
  public var description: String { "0x" + String(owner, radix: 16) }
}
