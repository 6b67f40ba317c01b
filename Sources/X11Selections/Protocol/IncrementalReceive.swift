/// The requestor's side of one INCR transfer (ICCCM §2.7.2), as a value: no Xlib, no clock.
///
/// After the `INCR` announcement the requestor deletes the property; each new value is a
/// chunk, read and deleted; a zero-length value ends the transfer. The type of the data comes
/// with the chunks; the size in the announcement is only a hint (xclip sends none).
///
/// ```swift
/// var receive = IncrementalReceive()
/// receive.chunk(type: utf8, byteCount: 4000)   // .append
/// receive.chunk(type: utf8, byteCount: 0)      // .finish
/// ```
struct IncrementalReceive: Sendable, Equatable {
  enum State: Sendable, Equatable {
    case receiving(chunks: Int, bytes: Int)
    case finished(chunks: Int, bytes: Int)
  }

  enum Action: Sendable, Equatable {
    /// Append the chunk's bytes to what was received.
    case append
    /// The transfer is complete.
    case finish
    /// A chunk after the end: ignore it.
    case ignore
  }

  private(set) var state = State.receiving(chunks: 0, bytes: 0)
  /// The data's type, from the first chunk.
  private(set) var type: XAtom?

  /// A new property value arrived.
  mutating func chunk(type: XAtom, byteCount: Int) -> Action {
    guard case .receiving(let chunks, let bytes) = state else { return .ignore }
    if byteCount == 0 {
      state = .finished(chunks: chunks, bytes: bytes)
      return .finish
    }
    if self.type == nil { self.type = type }
    state = .receiving(chunks: chunks + 1, bytes: bytes + byteCount)
    return .append
  }

  /// The bytes received so far.
  var receivedBytes: Int {
    switch state {
    case .receiving(_, let bytes), .finished(_, let bytes): bytes
    }
  }
}
