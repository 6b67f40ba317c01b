/// The owner's side of one INCR transfer (ICCCM §2.7.2), as a value: no Xlib, no clock.
///
/// The owner announces `INCR` with the total size, then writes one chunk each time the
/// requestor deletes the property, then a zero-length property to end.
///
/// ```swift
/// var send = IncrementalSend(totalBytes: 10, chunkBytes: 4)
/// send.propertyDeleted()   // .writeChunk(0..<4)
/// send.propertyDeleted()   // .writeChunk(4..<8)
/// send.propertyDeleted()   // .writeChunk(8..<10)
/// send.propertyDeleted()   // .writeTerminator
/// send.propertyDeleted()   // .ignore (finished)
/// ```
struct IncrementalSend: Sendable, Equatable {
  enum State: Sendable, Equatable {
    /// `INCR` announced; the first deletion asks for the first chunk.
    case announced
    /// Chunks up to `offset` are written; the next deletion asks for more.
    case sending(offset: Int)
    /// The terminator is written: the transfer is complete.
    case finished
    /// The requestor stopped answering or went away.
    case abandoned
  }

  enum Action: Sendable, Equatable {
    case writeChunk(Range<Int>)
    case writeTerminator
    case ignore
  }

  let totalBytes: Int
  let chunkBytes: Int
  private(set) var state = State.announced

  init(totalBytes: Int, chunkBytes: Int) {
    precondition(chunkBytes > 0)
    self.totalBytes = totalBytes
    self.chunkBytes = chunkBytes
  }

  /// The requestor deleted the property: it has read what was there.
  mutating func propertyDeleted() -> Action {
    let offset: Int
    switch state {
    case .announced: offset = 0
    case .sending(let written): offset = written
    case .finished, .abandoned: return .ignore
    }
    if offset >= totalBytes {
      state = .finished
      return .writeTerminator
    }
    let end = min(offset + chunkBytes, totalBytes)
    state = .sending(offset: end)
    return .writeChunk(offset..<end)
  }

  /// The deadline passed with no deletion, or the requestor's window is gone.
  mutating func abandon() {
    if state != .finished { state = .abandoned }
  }

  /// Whether nothing more will be written.
  var isOver: Bool { state == .finished || state == .abandoned }
}
