/// One `MULTIPLE` request on the owner's side (ICCCM §2.6.2), as a value.
///
/// The requestor lists (target, property) pairs in an `ATOM_PAIR` property; the owner
/// converts each into its property and, for a pair it cannot convert, writes `None` in place
/// of the property in the list it writes back.
///
/// ```swift
/// var multiple = MultipleConversion(pairs: [utf8, propA, png, propB])!
/// multiple.complete(0, succeeded: true)
/// multiple.complete(1, succeeded: false)
/// multiple.replyPairs   // [utf8, propA, png, .none]
/// ```
struct MultipleConversion: Sendable, Equatable {
  struct Pair: Sendable, Equatable {
    var target: XAtom
    var property: XAtom
  }

  enum Outcome: Sendable, Equatable { case pending, succeeded, failed }

  let pairs: [Pair]
  private(set) var outcomes: [Outcome]

  /// Reads the pair list; `nil` when it is empty or has an odd number of atoms.
  init?(pairs atoms: [XAtom]) {
    guard !atoms.isEmpty, atoms.count % 2 == 0 else { return nil }
    pairs = stride(from: 0, to: atoms.count, by: 2).map { Pair(target: atoms[$0], property: atoms[$0 + 1]) }
    outcomes = Array(repeating: .pending, count: pairs.count)
  }

  /// Records the outcome of pair `index`.
  mutating func complete(_ index: Int, succeeded: Bool) {
    guard outcomes.indices.contains(index), outcomes[index] == .pending else { return }
    outcomes[index] = succeeded ? .succeeded : .failed
  }

  /// Whether every pair has an outcome.
  var isComplete: Bool { !outcomes.contains(.pending) }

  /// The list to write back: failed pairs carry `None` as their property.
  var replyPairs: [XAtom] {
    zip(pairs, outcomes).flatMap { pair, outcome in
      [pair.target, outcome == .succeeded ? pair.property : .none]
    }
  }
}
