import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// The broker serves every client's copy on the X selection after it mirrored an xclip copy
/// (MirrorPolicy's identities are addresses: before 0dd98c4, every other `pbcopy` after an
/// xclip copy stayed off the selection, whose owner kept answering the copy before).
@Suite(.skipsWithoutPeers) struct MirrorIdentityInteropTests {
  @Test func everyPbcopyAfterAnXclipCopyIsOnTheSelection() async throws {
    try Peers.require("xclip")
    let xvfb = try await XvfbServer.disposable()
    defer { xvfb.stop() }
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    for round in 1...3 {
      let xclip = try fixture.start(
        ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("xclip \(round)".utf8))
      let mirrored = await Deadline.wait(for: .seconds(20)) {
        (try? await fixture.run(["pbpaste"]).stdoutText) == "xclip \(round)"
      }
      #expect(mirrored, "round \(round)")
      for copy in 1...4 {
        let text = "pbcopy \(round).\(copy)"
        #expect(try await fixture.run(["pbcopy"], input: Data(text.utf8)).status == 0)
        let served = await Deadline.wait(for: .seconds(10)) {
          (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText) == text
        }
        let shown = (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]))?.stdoutText
        #expect(served, "\(text): xclip -o gives \(shown ?? "nothing")")
      }
      _ = await xclip.stopped()
    }
    try await fixture.stop()
  }
}
