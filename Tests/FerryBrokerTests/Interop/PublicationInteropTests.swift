import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// A `pbcopy` is done when its copy is on the X selection, as an `xclip -i` is: a paste by
/// any X program right after it reads it, and a copy made right after it is never overtaken
/// by the broker taking the selection late.
@Suite(.serialized, .skipsWithoutPeers) struct PublicationInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip")
    xvfb = try await XvfbServer.dedicated("publication")
  }

  /// While another client holds the server, the broker cannot take the selection: pbcopy
  /// must not say it is done before the server lets the broker take it.
  @Test func pbcopyReturnsOnlyOnceTheBrokerOwnsTheSelection() async throws {
    let grab = try await DetachedThread.run { try CompiledPeer.build("server_grab.c") }
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let released = fixture.runtime.appendingPathComponent("released")
    let grabber = try fixture.start([grab, "1500", released.path])
    defer { _ = grabber.kill() }
    #expect(await waitForOutput(grabber, "grabbed"))
    #expect(try await fixture.run(["pbcopy"], input: Data("while grabbed".utf8)).status == 0)
    #expect(
      FileManager.default.fileExists(atPath: released.path),
      "pbcopy returned while the broker could not own CLIPBOARD")
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText
        == "while grabbed")
    try await fixture.stop()
  }

  @Test func aPasteRightAfterPbcopyReadsTheNewCopy() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    var stale: [String] = []
    for round in 1...60 {
      #expect(try await fixture.run(["pbcopy"], input: Data("copy \(round)".utf8)).status == 0)
      let pasted = try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText
      if pasted != "copy \(round)" { stale.append("round \(round) read \(pasted)") }
    }
    #expect(stale.isEmpty, "xclip -o right after pbcopy read an older copy: \(stale)")
    try await fixture.stop()
  }

  @Test func aCopyRightAfterPbcopyIsNotOvertaken() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    var overtaken: [String] = []
    for round in 1...25 {
      #expect(try await fixture.run(["pbcopy"], input: Data("pbcopy \(round)".utf8)).status == 0)
      let xclip = try fixture.start(
        ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("xclip \(round)".utf8))
      defer { _ = xclip.kill() }
      let settled = await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "xclip \(round)"
      }
      if !settled || !xclip.process.isRunning { overtaken.append("round \(round)") }
    }
    #expect(
      overtaken.isEmpty,
      "the broker took CLIPBOARD from the xclip copied after pbcopy: \(overtaken)")
    try await fixture.stop()
  }
}
