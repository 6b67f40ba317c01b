import FoundationEssentials

extension PasteboardState {
  /// The state with its type lists cut, the last types first, until its JSON takes at most
  /// `budget` bytes: a frame never passes ``FrameLimits/maxJSONBody``, even for an owner that
  /// lists hundreds of long targets (a hostile X owner's 512 names of 150 bytes were 82 KB,
  /// and `ferry status` failed while that copy was current). A state that fits is unchanged.
  public func fitting(within budget: Int) -> PasteboardState {
    var state = self
    while Self.encodedSize(state) > budget, !state.types.isEmpty || !state.storedTypes.isEmpty {
      state.types.removeLast((state.types.count + 1) / 2)
      state.storedTypes.removeLast((state.storedTypes.count + 1) / 2)
    }
    return state
  }

  /// The room for each of `count` states in one JSON frame, beside an envelope of
  /// `envelope` bytes.
  public static func budget(sharing count: Int, envelope: Int = 8 << 10) -> Int {
    (FrameLimits.maxJSONBody - envelope) / max(count, 1)
  }

  private static func encodedSize(_ state: PasteboardState) -> Int {
    (try? JSONCoding.encoder.encode(state).count) ?? Int.max
  }
}
