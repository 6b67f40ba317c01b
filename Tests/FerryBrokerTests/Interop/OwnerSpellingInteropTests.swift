import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A kept copy answers to each name its owner offered, spelled as the owner spelled it, on a
/// private Xvfb with xclip as the owner and the reader: LibreOffice Calc offers
/// `text/plain;charset=UTF-8`, and after it quits a reader asking for that exact atom must
/// still get the text.
@Suite(.serialized, .skipsWithoutPeers("xclip")) struct OwnerSpellingInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    xvfb = try await XvfbServer.dedicated("owner-spelling")
  }

  @Test func aCopyKeptAfterItsOwnerWentAnswersToTheOwnersSpelling() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let name = "text/plain;charset=UTF-8"
    let owner = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard", "-t", name],
      input: Data("Calc cell".utf8))
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "Calc cell"
      }, "the broker mirrored xclip's copy: \(owner.errorSoFar)")
    _ = await owner.stopped(signal: SIGKILL)
    // The broker serves the copy now (its targets include TIMESTAMP; xclip's do not).
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        let targets = try? await fixture.run([
          "xclip", "-o", "-selection", "clipboard", "-t", "TARGETS",
        ])
        return targets?.stdoutText.contains("TIMESTAMP") == true
      }, "the broker took the copy over")
    let targets = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
    let listed = targets.stdoutText.split(separator: "\n").map(String.init)
    #expect(listed.contains(name), "\(listed)")
    #expect(listed.contains("text/plain;charset=utf-8"), "Ferry's own name too: \(listed)")
    let pasted = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", name])
    #expect(pasted.status == 0)
    #expect(pasted.stdoutText == "Calc cell")
    try await fixture.stop()
  }
}
