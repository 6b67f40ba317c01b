import Testing

@testable import X11Selections

/// The requestor's read as a value: whole replies, INCR, budgets that never abandon a started
/// transfer, replies that do not fit their target, and timeouts that leave an orphan to drain.
@Suite struct SelectionReadTests {
  private typealias Shape = SelectionRead.PropertyShape

  private func incremental(budget: Int?, announced: Int? = nil) -> SelectionRead {
    var read = SelectionRead(target: "UTF8_STRING", budget: budget)
    #expect(
      read.replied(Shape(type: "INCR", format: 32, byteCount: 4), selection: .clipboard)
        == .readAnnouncement)
    #expect(read.announced(size: announced) == .startIncremental)
    return read
  }

  @Test(arguments: [[1], [4000, 4000, 1], [1_048_575, 1_048_575, 1_048_575, 3]])
  func keepsChunksUntilAZeroLengthOne(sizes: [Int]) {
    var read = incremental(budget: nil)
    for size in sizes {
      #expect(read.chunk(type: "UTF8_STRING", format: 8, byteCount: size) == .keepChunk)
    }
    #expect(read.chunk(type: "UTF8_STRING", format: 8, byteCount: 0) == .deliver)
    #expect(read.keptBytes == sizes.reduce(0, +))
    #expect(read.state == .finished)
    #expect(
      read.chunk(type: "UTF8_STRING", format: 8, byteCount: 9) == .ignore, "nothing after the end")
  }

  @Test func theTypeComesFromTheFirstChunk() {
    var read = incremental(budget: nil)
    _ = read.chunk(type: "text/html", format: 8, byteCount: 10)
    _ = read.chunk(type: "UTF8_STRING", format: 8, byteCount: 10)
    #expect(read.dataType == "text/html")
  }

  /// The defect this machine exists for: a transfer past the budget used to be abandoned, and
  /// xclip, which has no timeout, then served nobody ever again.
  @Test(arguments: [
    (budget: 0, chunks: 3), (budget: 1_000_000, chunks: 70), (budget: 64 << 20, chunks: 70),
  ])
  func aTransferPastTheBudgetIsDrainedToItsEnd(budget: Int, chunks: Int) {
    var read = incremental(budget: budget)
    let chunk = 1_048_575
    var discarded = 0
    for _ in 0..<chunks {
      switch read.chunk(type: "UTF8_STRING", format: 8, byteCount: chunk) {
      case .keepChunk: break
      case .discardChunk: discarded += 1
      case let other: Issue.record("a chunk mid-transfer got \(other)")
      }
    }
    #expect(discarded > 0)
    #expect(read.expectsChunks, "still taking chunks after the budget ran out")
    #expect(
      read.chunk(type: "UTF8_STRING", format: 8, byteCount: 0)
        == .deliverFailure(.tooLarge(limit: budget)))
    #expect(read.state == .finished)
  }

  @Test func anAnnouncedSizePastTheBudgetIsDecidedBeforeAnyChunk() {
    var read = incremental(budget: 1 << 20, announced: 4_294_967_295)
    #expect(read.state == .draining(failure: .tooLarge(limit: 1 << 20)))
    #expect(
      read.chunk(type: "UTF8_STRING", format: 8, byteCount: 10) == .discardChunk,
      "even a small chunk")
    #expect(
      read.chunk(type: "UTF8_STRING", format: 8, byteCount: 0)
        == .deliverFailure(.tooLarge(limit: 1 << 20)))
  }

  @Test func aWholeReplyPastTheBudgetIsNeverRead() {
    var read = SelectionRead(target: "image/png", budget: 100)
    #expect(
      read.replied(Shape(type: "image/png", format: 8, byteCount: 101), selection: .clipboard)
        == .discardWhole(.tooLarge(limit: 100)))
    var fits = SelectionRead(target: "image/png", budget: 100)
    #expect(
      fits.replied(Shape(type: "image/png", format: 8, byteCount: 100), selection: .clipboard)
        == .readWhole)
    #expect(fits.keptBytes == 100)
  }

  @Test func aRefusalAndAMissingPropertyFailAtOnce() {
    var refused = SelectionRead(target: "text/html", budget: nil)
    #expect(
      refused.replied(nil, selection: .primary)
        == .fail(.refused(selection: .primary, target: "text/html")))
    var missing = SelectionRead(target: "text/html", budget: nil)
    guard case .fail(.malformedReply) = missing.replied(nil, selection: .primary, missing: true)
    else {
      Issue.record("a missing property is a malformed reply")
      return
    }
  }

  @Test(arguments: [
    (target: "UTF8_STRING", type: "INTEGER", format: 32),
    (target: "UTF8_STRING", type: "UTF8_STRING", format: 32),
    (target: "STRING", type: "ATOM", format: 32),
    (target: "image/png", type: "image/png", format: 16),
    (target: "TARGETS", type: "STRING", format: 8),
    (target: "text/html", type: "INTEGER", format: 8),
  ])
  func aReplyThatDoesNotFitItsTargetIsRefused(target: String, type: String, format: Int) {
    var whole = SelectionRead(target: target, budget: nil)
    guard
      case .discardWhole(.malformedReply(let why)) = whole.replied(
        Shape(type: type, format: format, byteCount: 8), selection: .clipboard)
    else {
      Issue.record("\(type)/\(format) for \(target) was taken")
      return
    }
    #expect(why.contains(target) && why.contains("\(type)/\(format)"))
    // By INCR, the first chunk decides, and the rest is drained.
    var incremental = SelectionRead(target: target, budget: nil)
    _ = incremental.replied(Shape(type: "INCR", format: 32, byteCount: 4), selection: .clipboard)
    _ = incremental.announced(size: nil)
    #expect(incremental.chunk(type: type, format: format, byteCount: 8) == .discardChunk)
    guard
      case .deliverFailure(.malformedReply) = incremental.chunk(
        type: type, format: format, byteCount: 0)
    else {
      Issue.record("the drained transfer reports the mismatch at its end")
      return
    }
  }

  @Test(arguments: [
    (target: "UTF8_STRING", type: "UTF8_STRING", format: 8),
    (target: "STRING", type: "STRING", format: 8),
    (target: "TEXT", type: "COMPOUND_TEXT", format: 8),
    (target: "text/plain;charset=utf-8", type: "text/plain;charset=utf-8", format: 8),
    (target: "TARGETS", type: "ATOM", format: 32),
    (target: "TIMESTAMP", type: "INTEGER", format: 32),
    (target: "com.example.profile", type: "INTEGER", format: 32),
  ])
  func repliesThatFitAreTaken(target: String, type: String, format: Int) {
    #expect(ReplyFit.problem(target: target, type: type, format: format) == nil)
  }

  @Test func aTimeoutMidTransferAnswersTheCallerAndKeepsDraining() {
    var read = incremental(budget: nil)
    _ = read.chunk(type: "UTF8_STRING", format: 8, byteCount: 100)
    #expect(read.stepTimedOut("waiting") == .failAndDrain(.timedOut("waiting")))
    #expect(read.state == .orphaned)
    #expect(
      read.chunk(type: "UTF8_STRING", format: 8, byteCount: 100) == .discardChunk,
      "a late chunk is still taken")
    #expect(read.chunk(type: "UTF8_STRING", format: 8, byteCount: 0) == .discardChunk)
    #expect(read.state == .finished)
  }

  @Test func aTimeoutBeforeTheAnswerFailsPlainly() {
    var read = SelectionRead(target: "UTF8_STRING", budget: nil)
    #expect(read.stepTimedOut("waiting") == .fail(.timedOut("waiting")))
    #expect(!read.expectsChunks)
  }
}
