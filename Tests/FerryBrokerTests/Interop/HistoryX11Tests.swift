import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// A restored history entry as X programs see it, on a private Xvfb.
@Suite(.serialized, .skipsWithoutPeers) struct HistoryX11Tests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip", "xsel")
    // A display of its own: other suites use CLIPBOARD on theirs meanwhile.
    xvfb = try await XvfbServer.dedicated("history-restore")
  }

  /// CLIPBOARD's targets as xclip lists them.
  static func targets(_ fixture: BrokerFixture) async throws -> [String] {
    try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"]).stdoutText
      .split(separator: "\n").map(String.init)
  }

  @Test func aRestoredEntryOffersXEveryTargetItFirstOffered() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let html = try HistoryCommandTests.file("a.html", Data("<b>restored</b>".utf8), fixture)
    let text = try HistoryCommandTests.file("a.txt", Data("restored".utf8), fixture)
    let image = Data((0..<(100 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let png = try HistoryCommandTests.file("a.png", image, fixture)
    let copy = try await fixture.run([
      "ferry", "copy", "--type", "text/html", html, "--type", "text", text, "--type", "png", png,
    ])
    #expect(copy.status == 0, "\(copy.stderrText)")
    let original = try await Self.targets(fixture)
    #expect(
      original.first == "text/html" && original.contains("image/png")
        && original.contains("UTF8_STRING"), "\(original)")
    let entry = try #require(try await HistoryCommandTests.waitForEntries(fixture, count: 1).first)

    // An X program copies something else, and holds CLIPBOARD.
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("from xclip".utf8))
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["pbpaste"]).stdoutText) == "from xclip"
      })
    #expect(try await Self.targets(fixture) != original)

    let restore = try await fixture.run(["ferry", "history", "restore", "\(entry.id)"])
    #expect(restore.status == 0, "\(restore.stderrText)")
    // The answer comes once the copy is on CLIPBOARD: no wait.
    #expect(try await Self.targets(fixture) == original)
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "text/html"])
        .stdoutText == "<b>restored</b>")
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "image/png"]).stdout
        == image)
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "restored")
    #expect(try await fixture.run(["xsel", "-o", "-b"]).stdoutText == "restored")
    _ = try await DetachedThread.run { xclip.kill() }  // it lost CLIPBOARD to the broker and is gone already, or goes now
    try await fixture.stop()
  }
}
