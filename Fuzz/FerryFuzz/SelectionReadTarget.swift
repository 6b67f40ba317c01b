@testable import X11Selections

/// The requestor's read of one conversion, INCR included (`SelectionRead`), driven by a
/// fuzzed sequence of owner replies, announcements, chunks and timeouts: the caller is
/// answered at most once, what is kept never passes the budget, nothing happens after the
/// read is finished, and a transfer that has started is left only at its end (a zero-length
/// chunk) or at a second timeout.
let selectionReadTarget = FuzzTarget(name: "selection-read") { bytes in
  var input = FuzzInput(bytes)
  let targets = ["UTF8_STRING", "TARGETS", "TIMESTAMP", "image/png", "text/html", "SAVE_TARGETS"]
  let types = ["INCR", "UTF8_STRING", "ATOM", "INTEGER", "image/png", "STRING", "text/plain"]
  let formats = [8, 16, 32, 0, 7]
  let budget: Int? = input.bool() ? nil : input.size()
  var read = SelectionRead(target: input.pick(targets), budget: budget)
  var answers = 0
  var keptByModel = 0
  while !input.isAtEnd {
    let before = read.state
    let action: SelectionRead.Action
    var zeroChunk = false
    switch input.choice(5) {
    case 0:
      let shape = SelectionRead.PropertyShape(
        type: input.pick(types), format: input.pick(formats), byteCount: input.size())
      action = read.replied(shape, selection: .clipboard)
      if action == .readWhole { keptByModel = shape.byteCount }
    case 1:
      action = read.replied(nil, selection: .primary, missing: input.bool())
    case 2:
      action = read.announced(size: input.bool() ? nil : input.size())
    case 3:
      let byteCount = input.size()
      zeroChunk = byteCount == 0
      action = read.chunk(
        type: input.pick(types), format: input.pick(formats), byteCount: byteCount)
      if action == .keepChunk { keptByModel += byteCount }
    default:
      action = read.stepTimedOut("fuzzing")
    }
    if before == .finished { require(action == .ignore, "\(action) after the read finished") }
    switch action {
    case .fail, .discardWhole, .readWhole, .deliver, .deliverFailure, .failAndDrain: answers += 1
    case .readAnnouncement, .startIncremental, .keepChunk, .discardChunk, .ignore: break
    }
    require(answers <= 1, "the caller was answered \(answers) times")
    if let budget {
      require(read.keptBytes <= budget, "kept \(read.keptBytes) bytes over a budget of \(budget)")
    }
    require(
      read.keptBytes == keptByModel,
      "kept \(read.keptBytes) bytes, the chunks kept add up to \(keptByModel)")
    if case .keepChunk = action { require(before == .receiving, "a chunk kept while \(before)") }
    let wasTransferring: Bool
    switch before {
    case .receiving, .draining, .orphaned: wasTransferring = true
    default: wasTransferring = false
    }
    if wasTransferring && read.state == .finished {
      require(
        zeroChunk || before == .orphaned,
        "an INCR transfer was left before its end (\(before), \(action))")
    }
  }
}

/// The owner's side of one INCR transfer (`IncrementalSend`): chunks cover the data in order,
/// each at most a chunk long, the terminator comes once after the last byte, and nothing is
/// written once the transfer is over.
let incrementalSendTarget = FuzzTarget(name: "incremental-send") { bytes in
  var input = FuzzInput(bytes)
  let total = input.number(bytes: 3) - (input.bool() ? 8 : 0)
  let chunk = input.number(bytes: 2) + 1
  var send = IncrementalSend(totalBytes: total, chunkBytes: chunk)
  var written = 0
  var terminated = false
  while !input.isAtEnd {
    let wasOver = send.isOver
    if input.choice(8) == 0 {
      let wasFinished = send.state == .finished
      send.abandon()
      if wasFinished {
        require(send.state == .finished, "abandoning a finished transfer changed it")
      }
      continue
    }
    let action = send.propertyDeleted()
    if wasOver { require(action == .ignore, "\(action) after the transfer was over") }
    switch action {
    case .writeChunk(let range):
      require(!terminated, "a chunk after the terminator")
      require(
        range.lowerBound == written,
        "a chunk at \(range.lowerBound), the data so far ends at \(written)")
      require(
        !range.isEmpty && range.count <= chunk,
        "a chunk of \(range.count) bytes (chunks are \(chunk))")
      require(range.upperBound <= total, "a chunk past the \(total) bytes")
      written = range.upperBound
    case .writeTerminator:
      require(!terminated, "a second terminator")
      require(written >= total, "the terminator at \(written) of \(total) bytes")
      terminated = true
    case .ignore:
      require(send.isOver, "a deletion ignored mid-transfer")
    }
  }
}
