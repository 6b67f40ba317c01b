import Testing

@testable import X11Selections

/// The owner's side of INCR as a value: which bytes go out on each deletion, without a server.
@Suite struct IncrementalSendTests {
  /// Drives a transfer to its end and returns every action.
  private func run(totalBytes: Int, chunkBytes: Int) -> [IncrementalSend.Action] {
    var send = IncrementalSend(totalBytes: totalBytes, chunkBytes: chunkBytes)
    var actions: [IncrementalSend.Action] = []
    while !send.isOver {
      actions.append(send.propertyDeleted())
    }
    return actions
  }

  @Test(arguments: [
    (total: 1, chunk: 4),
    (total: 3, chunk: 4),
    (total: 4, chunk: 4),
    (total: 5, chunk: 4),
    (total: 7, chunk: 4),
    (total: 8, chunk: 4),
    (total: 9, chunk: 4),
    (total: 1_048_575, chunk: 1_048_576),
    (total: 1_048_576, chunk: 1_048_576),
    (total: 1_048_577, chunk: 1_048_576),
    (total: 64 << 20, chunk: 4_193_188),
  ])
  func chunksCoverThePayloadInOrderThenTerminate(total: Int, chunk: Int) {
    let actions = run(totalBytes: total, chunkBytes: chunk)
    #expect(actions.last == .writeTerminator)
    let ranges = actions.dropLast().compactMap { action -> Range<Int>? in
      if case .writeChunk(let range) = action { return range }
      return nil
    }
    #expect(ranges.count == actions.count - 1, "only chunks before the terminator")
    #expect(ranges.count == (total + chunk - 1) / chunk)
    #expect(ranges.first?.lowerBound == 0)
    #expect(ranges.last?.upperBound == total)
    for (previous, next) in zip(ranges, ranges.dropFirst()) {
      #expect(previous.upperBound == next.lowerBound, "contiguous")
    }
    #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= chunk })
    #expect(ranges.dropLast().allSatisfy { $0.count == chunk }, "only the last chunk is short")
  }

  @Test func anEmptyPayloadIsOnlyATerminator() {
    #expect(run(totalBytes: 0, chunkBytes: 4) == [.writeTerminator])
  }

  @Test func deletionsAfterTheTerminatorAreIgnored() {
    var send = IncrementalSend(totalBytes: 2, chunkBytes: 4)
    #expect(send.propertyDeleted() == .writeChunk(0..<2))
    #expect(send.propertyDeleted() == .writeTerminator)
    #expect(send.state == .finished)
    #expect(send.propertyDeleted() == .ignore)
    #expect(send.propertyDeleted() == .ignore)
    #expect(send.state == .finished)
  }

  @Test(arguments: [0, 1, 2])
  func anAbandonedTransferWritesNothingMore(chunksBefore: Int) {
    var send = IncrementalSend(totalBytes: 10, chunkBytes: 4)
    for _ in 0..<chunksBefore { _ = send.propertyDeleted() }
    send.abandon()
    #expect(send.state == .abandoned)
    #expect(send.isOver)
    #expect(send.propertyDeleted() == .ignore)
  }

  @Test func abandoningAFinishedTransferKeepsItFinished() {
    var send = IncrementalSend(totalBytes: 1, chunkBytes: 4)
    _ = send.propertyDeleted()
    _ = send.propertyDeleted()
    send.abandon()
    #expect(send.state == .finished)
  }

  @Test func statesFollowTheDeletions() {
    var send = IncrementalSend(totalBytes: 10, chunkBytes: 4)
    #expect(send.state == .announced)
    #expect(!send.isOver)
    _ = send.propertyDeleted()
    #expect(send.state == .sending(offset: 4))
    _ = send.propertyDeleted()
    #expect(send.state == .sending(offset: 8))
    _ = send.propertyDeleted()
    #expect(send.state == .sending(offset: 10))
    #expect(!send.isOver, "the terminator is still to be written")
  }
}
