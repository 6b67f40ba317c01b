import FerryProtocol
import Foundation
import Testing

/// A pasteboard's state always fits one JSON frame: an owner listing hundreds of long targets
/// has its types cut, the first kept in order, in `ferry status`, `watch` and `types`.
@Suite struct PasteboardStateFittingTests {
  /// The state of a copy whose owner lists `count` targets of 150 bytes.
  private static func state(types count: Int) -> PasteboardState {
    let names = (0..<count).map {
      "org.example.bogus-target-\($0)-" + String(repeating: "x", count: 120)
    }
    return PasteboardState(
      pasteboard: "general", changeCount: 7, types: names, storedTypes: names, concealed: false)
  }

  private static func size(_ value: some Encodable) throws -> Int {
    try Frame.json(.response, value).body.count
  }

  @Test func aStateOfFiveHundredLongTypesFitsAFrame() throws {
    let whole = Self.state(types: 512)
    #expect(try Self.size(whole) > FrameLimits.maxJSONBody, "the case that failed")
    let fitted = whole.fitting(within: PasteboardState.budget(sharing: 1))
    #expect(try Self.size(fitted) <= FrameLimits.maxJSONBody)
    #expect(!fitted.types.isEmpty && fitted.types == Array(whole.types.prefix(fitted.types.count)))
    #expect(fitted.changeCount == 7 && fitted.pasteboard == "general")
  }

  @Test func aStatusOfSeveralSuchBoardsFitsAFrame() throws {
    let budget = PasteboardState.budget(sharing: 3)
    let boards = (0..<3).map { _ in Self.state(types: 512).fitting(within: budget) }
    let status = StatusResponse(
      version: "0", pid: 1, uptime: 1, display: ":0", x11Bridged: true, clipboardManager: true,
      socket: "/run/user/0/ferry/display-0.sock", pasteboards: boards, history: nil, wayland: nil)
    #expect(try Self.size(status) <= FrameLimits.maxJSONBody)
  }

  @Test func aStateThatFitsIsUnchanged() {
    let state = Self.state(types: 10)
    #expect(state.fitting(within: PasteboardState.budget(sharing: 1)) == state)
  }
}
