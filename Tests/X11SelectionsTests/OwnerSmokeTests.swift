import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

@Suite struct OwnerSmokeTests {
  @Test func xclipPastesWhatFerryOwns() async throws {
    let xvfb = try XvfbServer.shared()
    let display = try X11Display(name: xvfb.name)
    let item = PasteboardItem(representations: [.data(Data("héllo wörld".utf8), type: .utf8PlainText)])
    try await display.own("CLIPBOARD", item: item)
    let paste = try PeerProcess.run(["xclip", "-o", "-selection", "clipboard"], display: xvfb.name)
    #expect(paste.status == 0)
    #expect(paste.stdoutText == "héllo wörld")
    let targets = try PeerProcess.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"], display: xvfb.name)
    print(targets.stdoutText)
    #expect(targets.stdoutText.hasPrefix("UTF8_STRING\n"))
  }
}
