import Testing

@testable import X11Selections

/// One MULTIPLE request as a value: the pair list in, the list to write back out.
@Suite struct MultipleConversionTests {
  private static func atoms(_ raw: [UInt]) -> [XAtom] { raw.map(XAtom.init(rawValue:)) }

  @Test(arguments: [[UInt](), [1], [1, 2, 3], [1, 2, 3, 4, 5]])
  func oddOrEmptyListsAreRejected(raw: [UInt]) {
    #expect(MultipleConversion(pairs: Self.atoms(raw)) == nil)
  }

  @Test func pairsAreReadInOrder() throws {
    let multiple = try #require(MultipleConversion(pairs: Self.atoms([10, 11, 20, 21])))
    #expect(multiple.pairs == [.init(target: .init(rawValue: 10), property: .init(rawValue: 11)),
                               .init(target: .init(rawValue: 20), property: .init(rawValue: 21))])
    #expect(multiple.outcomes == [.pending, .pending])
    #expect(!multiple.isComplete)
  }

  @Test(arguments: [
    ([true, false, true], [UInt]([10, 11, 20, 0, 30, 31])),
    ([false, false, false], [10, 0, 20, 0, 30, 0]),
    ([true, true, true], [10, 11, 20, 21, 30, 31]),
  ])
  func failedPairsCarryNoneInTheReply(succeeded: [Bool], expected: [UInt]) throws {
    var multiple = try #require(MultipleConversion(pairs: Self.atoms([10, 11, 20, 21, 30, 31])))
    for (index, ok) in succeeded.enumerated() { multiple.complete(index, succeeded: ok) }
    #expect(multiple.isComplete)
    #expect(multiple.replyPairs == Self.atoms(expected))
  }

  @Test func pendingPairsAreNotReportedAsConverted() throws {
    var multiple = try #require(MultipleConversion(pairs: Self.atoms([10, 11, 20, 21])))
    multiple.complete(0, succeeded: true)
    #expect(!multiple.isComplete)
    #expect(multiple.replyPairs == Self.atoms([10, 11, 20, 0]))
  }

  @Test func anOutcomeIsRecordedOnceAndOutOfRangeIndicesAreIgnored() throws {
    var multiple = try #require(MultipleConversion(pairs: Self.atoms([10, 11])))
    multiple.complete(0, succeeded: false)
    multiple.complete(0, succeeded: true)
    multiple.complete(5, succeeded: true)
    multiple.complete(-1, succeeded: true)
    #expect(multiple.outcomes == [.failed])
    #expect(multiple.replyPairs == Self.atoms([10, 0]))
  }
}
