import Testing

@testable import X11Selections

/// One MULTIPLE request as a value: the pair list in, the list to write back out — and, on the
/// requestor's side, the list written and the owner's rewrite read back.
@Suite struct MultipleConversionTests {
  private static func atoms(_ raw: [UInt]) -> [XAtom] { raw.map(XAtom.init(rawValue:)) }

  @Test(arguments: [[UInt](), [1], [1, 2, 3], [1, 2, 3, 4, 5]])
  func oddOrEmptyListsAreRejected(raw: [UInt]) {
    #expect(MultipleConversion(pairs: Self.atoms(raw)) == nil)
  }

  @Test func pairsAreReadInOrder() throws {
    let multiple = try #require(MultipleConversion(pairs: Self.atoms([10, 11, 20, 21])))
    #expect(
      multiple.pairs == [
        .init(target: .init(rawValue: 10), property: .init(rawValue: 11)),
        .init(target: .init(rawValue: 20), property: .init(rawValue: 21)),
      ])
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

  // MARK: Requestor

  private static let asked = MultipleConversion(requesting: [
    .init(target: .init(rawValue: 10), property: .init(rawValue: 11)),
    .init(target: .init(rawValue: 20), property: .init(rawValue: 21)),
  ])

  @Test func theRequestorWritesTargetPropertyPairsInOrder() {
    #expect(Self.asked.atoms == Self.atoms([10, 11, 20, 21]))
    #expect(Self.asked.outcomes == [.pending, .pending])
  }

  /// What one side writes, the other reads: the owner's rewrite is the requestor's reply.
  @Test(arguments: [[true, true], [true, false], [false, true], [false, false]])
  func theOwnersRewriteReadsBackAsItsOutcomes(succeeded: [Bool]) throws {
    var owner = try #require(MultipleConversion(pairs: Self.asked.atoms))
    for (index, ok) in succeeded.enumerated() { owner.complete(index, succeeded: ok) }
    var requestor = Self.asked
    let read = requestor.readReply(owner.replyPairs)
    #expect(read)
    #expect(requestor.outcomes == succeeded.map { $0 ? .succeeded : .failed })
  }

  @Test(arguments: [
    [UInt](),  // gone
    [10, 11],  // a pair short
    [10, 11, 20, 21, 30, 31],  // a pair more
    [20, 21, 10, 11],  // reordered
    [10, 11, 20, 99],  // another property
    [10, 11, 99, 21],  // another target
  ])
  func aListThatIsNotTheOneAskedForIsMalformed(reply: [UInt]) {
    var requestor = Self.asked
    let read = requestor.readReply(Self.atoms(reply))
    #expect(!read)
    #expect(
      requestor.outcomes == [.pending, .pending], "nothing is recorded from a malformed list")
  }
}
