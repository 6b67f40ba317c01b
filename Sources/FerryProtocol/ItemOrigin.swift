/// Where an item was first copied and when, in the order every linked broker agrees on: the
/// identity `ferry sync` carries with an item from machine to machine (docs/SYNC.md).
///
/// `node` and `change` name the copy: the broker it was made on (a random identifier per broker
/// run, so a restart never reuses one) and that broker's change count then. `clock` and `node`
/// are its Lamport tag: a broker stamps a local copy with one more than any clock it has seen,
/// and takes a synchronized copy only when its tag is greater than the current item's, so copies
/// that cross converge on the same item everywhere, with no wall clock. `via` is the broker the
/// item last came from, which it is never offered back to.
///
/// `{"node":"6f1c…","change":12,"clock":40,"via":"b2e0…"}`
public struct ItemOrigin: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The broker the copy was made on.
  public var node: String
  /// That broker's change count for the copy.
  public var change: Int
  /// The Lamport clock of the copy.
  public var clock: Int
  /// The broker the item came from last, when it came through a link.
  public var via: String?

  /// An origin.
  public init(node: String, change: Int, clock: Int, via: String? = nil) {
    self.node = node
    self.change = change
    self.clock = clock
    self.via = via
  }

  /// The copy's identity, without the link it came through: equal for the same copy
  /// everywhere.
  public var copy: ItemOrigin { ItemOrigin(node: node, change: change, clock: clock) }

  /// Whether both name the same copy, whichever link each came through.
  public static func == (lhs: ItemOrigin, rhs: ItemOrigin) -> Bool {
    lhs.node == rhs.node && lhs.change == rhs.change && lhs.clock == rhs.clock
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(node)
    hasher.combine(change)
    hasher.combine(clock)
  }

  /// The tag order: clock first, then node. Two different copies never compare equal.
  public static func < (lhs: ItemOrigin, rhs: ItemOrigin) -> Bool {
    (lhs.clock, lhs.node, lhs.change) < (rhs.clock, rhs.node, rhs.change)
  }

  /// `12@6f1c…(40)`: the change, the node's first eight characters and the clock, for logs.
  public var description: String { "\(change)@\(node.prefix(8))(\(clock))" }
}
