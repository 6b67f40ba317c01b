import Testing

@testable import X11Selections

/// A capture's MULTIPLE request as a value: members read in order within one budget, the
/// owner's refusals, what is left over emptied (never half-read), and the fallback to single
/// requests when the request as a whole fails.
@Suite struct MultipleReadTests {
  private static let targets = ["text/html", "UTF8_STRING", "image/png"]

  private func request(budget: Int = 1000) -> MultipleRead {
    MultipleRead(selection: .clipboard, targets: Self.targets, budget: budget)
  }

  @Test func membersAreReadInOrderWithWhatIsLeftOfTheBudget() {
    var read = request()
    #expect(read.replied(.converted([true, true, true])) == .read(0, budget: 1000))
    #expect(read.memberRead(0, .success(300)) == .read(1, budget: 700))
    #expect(read.memberRead(1, .success(200)) == .read(2, budget: 500))
    #expect(read.memberRead(2, .success(500)) == .finish)
    #expect(read.members == [.kept(byteCount: 300), .kept(byteCount: 200), .kept(byteCount: 500)])
    #expect(read.failure == nil)
    #expect(read.replyCame)
  }

  @Test func aPairTheOwnerReplacedWithNoneFailedAndIsNotRead() {
    var read = request()
    #expect(read.replied(.converted([false, true, false])) == .read(1, budget: 1000))
    #expect(read.memberRead(1, .success(10)) == .finish)
    #expect(
      read.members == [
        .failed(.refused(selection: .clipboard, target: "text/html")), .kept(byteCount: 10),
        .failed(.refused(selection: .clipboard, target: "image/png")),
      ])
  }

  /// As a capture by single requests: a member that does not fit fails, a later smaller one
  /// may still fit, and once the budget is spent the rest is emptied (budget zero: deleted
  /// unread, or drained) and dropped.
  @Test func theBudgetIsSpentInOrderAndTheRestIsEmptied() {
    var read = request()
    _ = read.replied(.converted([true, true, true]))
    #expect(read.memberRead(0, .failure(.tooLarge(limit: 1000))) == .read(1, budget: 1000))
    #expect(
      read.memberRead(1, .success(1000)) == .read(2, budget: 0), "emptied, not left on the window")
    #expect(read.memberRead(2, .failure(.tooLarge(limit: 0))) == .finish)
    #expect(read.members == [.failed(.tooLarge(limit: 1000)), .kept(byteCount: 1000), .notRead])
  }

  @Test(arguments: [X11Error.timedOut("waiting for the next INCR chunk"), .noOwner(.clipboard)])
  func anOwnerThatHangsOnOneMemberHasTheRestEmptied(error: X11Error) {
    var read = request()
    _ = read.replied(.converted([true, true, true]))
    #expect(read.memberRead(0, .failure(error)) == .read(1, budget: 0))
    #expect(read.memberRead(1, .success(0)) == .read(2, budget: 0))
    #expect(read.memberRead(2, .success(0)) == .finish)
    #expect(read.members == [.failed(error), .notRead, .notRead])
    #expect(read.failure == nil, "the request itself was answered: nothing is asked again")
  }

  @Test(arguments: [
    (MultipleRead.Reply.refused, X11Error.refused(selection: .clipboard, target: "MULTIPLE")),
    (.malformed("gone"), .malformedReply("gone")),
    (.converted([true]), .malformedReply("the owner's MULTIPLE list has another number of pairs")),
  ])
  func aFailedRequestEmptiesEveryMemberThenAsksForEachOnItsOwn(
    reply: MultipleRead.Reply, failure: X11Error
  ) {
    var read = request()
    #expect(
      read.replied(reply) == .read(0, budget: 0), "what the owner may have written is emptied")
    #expect(
      read.memberRead(
        0, .failure(.malformedReply("the owner announced text/html but wrote no property")))
        == .read(1, budget: 0))
    #expect(read.memberRead(1, .success(0)) == .read(2, budget: 0))
    #expect(read.memberRead(2, .failure(.tooLarge(limit: 0))) == .finish)
    #expect(read.members == [.unanswered, .unanswered, .unanswered])
    #expect(read.failure == failure)
    #expect(read.replyCame)
  }

  @Test func anUnansweredRequestLeavesItsPropertiesAloneAndAsksForEachOnItsOwn() {
    var read = request()
    #expect(read.timedOut("waiting for the owner of CLIPBOARD to answer MULTIPLE") == .finish)
    #expect(read.members == [.unanswered, .unanswered, .unanswered])
    #expect(read.failure == .timedOut("waiting for the owner of CLIPBOARD to answer MULTIPLE"))
    #expect(!read.replyCame, "the owner may still write: its properties are not used again")
    #expect(
      read.replied(.converted([true, true, true])) == .ignore, "a late answer changes nothing")
    #expect(read.timedOut("again") == .ignore)
  }

  @Test func eventsOutOfPlaceAreIgnored() {
    var read = request()
    #expect(read.memberRead(0, .success(1)) == .ignore, "nothing is being read yet")
    _ = read.replied(.converted([true, true, true]))
    #expect(
      read.timedOut("late") == .ignore, "the owner answered: the members' own deadlines count")
    #expect(read.replied(.refused) == .ignore, "one answer per request")
    #expect(read.memberRead(2, .success(1)) == .ignore, "member 2 is not being read")
  }

  // MARK: With the members' own reads

  /// What a fake owner answers into a member's property.
  enum Answer: Sendable, CustomStringConvertible {
    case whole(Int)
    /// INCR: the announced size (or none, as xclip), then chunks.
    case incremental(announced: Int?, chunks: [Int])

    var description: String {
      switch self {
      case .whole(let size): "whole(\(size))"
      case .incremental(let announced, let chunks):
        "incr(\(announced.map(String.init) ?? "-"), \(chunks))"
      }
    }
  }

  /// Runs a MULTIPLE request against a fake owner that converted every member, each member
  /// read by its own `SelectionRead`, as the service does. Returns the members' outcomes and,
  /// per member, whether its property was left empty with every INCR chunk taken.
  private func run(_ answers: [Answer], budget: Int) -> (
    members: [MultipleRead.Member], emptied: [Bool]
  ) {
    var multiple = MultipleRead(
      selection: .clipboard, targets: answers.map { _ in "UTF8_STRING" }, budget: budget)
    var emptied = Array(repeating: false, count: answers.count)
    var action = multiple.replied(.converted(answers.map { _ in true }))
    while case .read(let index, let memberBudget) = action {
      var read = SelectionRead(target: "UTF8_STRING", budget: memberBudget)
      var result: Result<Int, X11Error>
      switch answers[index] {
      case .whole(let size):
        switch read.replied(
          .init(type: "UTF8_STRING", format: 8, byteCount: size), selection: .clipboard)
        {
        case .readWhole: result = .success(read.keptBytes)
        case .discardWhole(let error): result = .failure(error)
        default:
          Issue.record("a whole reply is read or deleted")
          return ([], [])
        }
        emptied[index] = true
      case .incremental(let announced, let chunks):
        #expect(
          read.replied(.init(type: "INCR", format: 32, byteCount: 4), selection: .clipboard)
            == .readAnnouncement)
        #expect(read.announced(size: announced) == .startIncremental)
        result = .failure(.malformedReply("unfinished"))
        for size in chunks + [0] {
          switch read.chunk(type: "UTF8_STRING", format: 8, byteCount: size) {
          case .deliver: result = .success(read.keptBytes)
          case .deliverFailure(let error): result = .failure(error)
          default: break
          }
        }
        emptied[index] = read.state == .finished
      }
      action = multiple.memberRead(index, result)
    }
    #expect(action == .finish)
    return (multiple.members, emptied)
  }

  @Test(arguments: [0, 1, 99, 100, 150, 250, 10_000])
  func everyMemberIsEmptiedWhateverTheBudget(budget: Int) {
    let answers: [Answer] = [
      .incremental(announced: 100, chunks: [40, 40, 20]), .whole(50),
      .incremental(announced: nil, chunks: [60, 40]),
    ]
    let (members, emptied) = run(answers, budget: max(budget, 1))
    #expect(emptied == [true, true, true], "no member is left half-read: \(members)")
    let kept = members.reduce(0) { sum, member in
      if case .kept(let bytes) = member { sum + bytes } else { sum }
    }
    #expect(kept <= max(budget, 1))
  }

  @Test func anIncrementalMemberPastTheBudgetIsDrainedAndALaterOneStillFits() {
    let (members, emptied) = run(
      [
        .incremental(announced: 5000, chunks: [4000, 1000]),
        .incremental(announced: nil, chunks: [300, 200]),
      ], budget: 1000)
    #expect(members == [.failed(.tooLarge(limit: 1000)), .kept(byteCount: 500)])
    #expect(emptied == [true, true])
  }
}
