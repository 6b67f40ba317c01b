import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

extension ClipboardInteropTests {
  @Suite struct OwnerSmokeTests {
    @Test func xclipPastesWhatFerryOwns() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let item = PasteboardItem(representations: [
        .data(Data("héllo wörld".utf8), type: .utf8PlainText)
      ])
      try await display.own(.clipboard, item: item)
      let paste = try await runPeer(["xclip", "-o", "-selection", "clipboard"], display: xvfb.name)
      #expect(paste.status == 0)
      #expect(paste.stdoutText == "héllo wörld")
      let targets = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"], display: xvfb.name)
      #expect(targets.stdoutText.hasPrefix("UTF8_STRING\n"))
    }
  }
}
