/// One `MULTIPLE` request (ICCCM §2.6.2), as a value: the `ATOM_PAIR` list both sides speak.
///
/// The requestor lists (target, property) pairs in an `ATOM_PAIR` property; the owner
/// converts each into its property and, for a pair it cannot convert, writes `None` in place
/// of the property in the list it writes back. The owner reads a list with `init(pairs:)`
/// and writes ``replyPairs``; the requestor writes ``atoms`` and reads the owner's list back
/// with ``readReply(_:)``.
///
/// ```swift
/// // Owner
/// var multiple = MultipleConversion(pairs: [utf8, propA, png, propB])!
/// multiple.complete(0, succeeded: true)
/// multiple.complete(1, succeeded: false)
/// multiple.replyPairs   // [utf8, propA, png, .none]
///
/// // Requestor
/// var request = MultipleConversion(requesting: [.init(target: utf8, property: propA)])
/// request.atoms         // written to the requestor's ATOM_PAIR property
/// request.readReply([utf8, .none])   // true; request.outcomes == [.failed]
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
    pairs = stride(from: 0, to: atoms.count, by: 2).map {
      Pair(target: atoms[$0], property: atoms[$0 + 1])
    }
    outcomes = Array(repeating: .pending, count: pairs.count)
  }

  /// The requestor's list of pairs to ask for.
  init(requesting pairs: [Pair]) {
    self.pairs = pairs
    outcomes = Array(repeating: .pending, count: pairs.count)
  }

  /// The pairs as the flat atom list an `ATOM_PAIR` property holds.
  var atoms: [XAtom] { pairs.flatMap { [$0.target, $0.property] } }

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

  /// Reads the list the owner left in the requestor's property: a pair whose property is
  /// `None` failed, one that kept its property succeeded.
  ///
  /// - Returns: `false`, recording nothing, when the list is not the one asked for with
  ///   `None`s in it: another length, another target, another property.
  mutating func readReply(_ atoms: [XAtom]) -> Bool {
    guard atoms.count == pairs.count * 2 else { return false }
    var read: [Outcome] = []
    for (index, pair) in pairs.enumerated() {
      guard atoms[2 * index] == pair.target else { return false }
      switch atoms[2 * index + 1] {
      case pair.property: read.append(.succeeded)
      case .none: read.append(.failed)
      default: return false
      }
    }
    outcomes = read
    return true
  }
}
