/// A set of system types, by their row in the system table: conformance between system types
/// is one bit test.
package struct SystemTypeSet: Hashable, Sendable {
  private var words: (UInt64, UInt64, UInt64, UInt64)

  package init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
    words = (w0, w1, w2, w3)
  }

  package static let empty = SystemTypeSet(0, 0, 0, 0)

  package func contains(_ index: Int) -> Bool {
    let bit = UInt64(1) << UInt64(index & 63)
    switch index >> 6 {
    case 0: return words.0 & bit != 0
    case 1: return words.1 & bit != 0
    case 2: return words.2 & bit != 0
    case 3: return words.3 & bit != 0
    default: return false
    }
  }

  package mutating func insert(_ index: Int) {
    let bit = UInt64(1) << UInt64(index & 63)
    switch index >> 6 {
    case 0: words.0 |= bit
    case 1: words.1 |= bit
    case 2: words.2 |= bit
    case 3: words.3 |= bit
    default: preconditionFailure("system table larger than SystemTypeSet")
    }
  }

  package mutating func formUnion(_ other: SystemTypeSet) {
    words = (
      words.0 | other.words.0, words.1 | other.words.1, words.2 | other.words.2,
      words.3 | other.words.3
    )
  }

  /// The number of types in the set.
  package var count: Int {
    words.0.nonzeroBitCount + words.1.nonzeroBitCount + words.2.nonzeroBitCount
      + words.3.nonzeroBitCount
  }

  /// The rows in the set, in table order.
  package var indices: [Int] {
    (0..<256).filter(contains)
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.words == rhs.words
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
    hasher.combine(words.3)
  }
}
