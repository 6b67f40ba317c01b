import FerryTestSupport
import Foundation
import Testing
import X11Selections

extension ClipboardInteropTests {
  /// A Tk program (Tests/Peers/tk_clipboard.py, tkinter): `clipboard_get` reading Ferry,
  /// `clipboard_append` owning for Ferry. Tk is a correct Latin-1 owner and reader.
  @Suite struct TkTests {
    @Test func tkReadsFerrysText() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let text = "héllo tk wörld"
      try await display.own(clipboard, item: textItem(text))
      let result = try await ScriptPeer.tk.run(
        ["read", "TARGETS", "UTF8_STRING", "STRING", "image/png"], display: xvfb.name)
      #expect(result.status == 0, "\(result.stderrText)")
      let lines = ScriptReadLine.parse(result.stdoutText)
      let tkTargets = lines["TARGETS"]?.fields?["text"]
        .flatMap { Data(hex: $0) }.map {
          String(decoding: $0, as: UTF8.self).split(separator: " ").map(String.init)
        }
      #expect(tkTargets == (try await display.targets(of: clipboard)), "\(result.stdoutText)")
      #expect(lines["UTF8_STRING"]?.fields?["text"] == utf8Hex(text))
      #expect(lines["STRING"]?.fields?["text"] == utf8Hex(text), "Tk decodes Ferry's Latin-1")
      #expect(
        lines["image/png"] != nil && lines["image/png"]?.fields == nil, "\(result.stdoutText)")
    }

    @Test func ferryReadsWhatTkOwns() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let text = "héllo from tk"
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await ScriptPeer.tk.start(["own", text], display: xvfb.name)
      defer { owner.terminate() }
      try await owner.expectOutput("ready")
      try await waitForPeer(display, previous: previous, owner)

      let targets = try await display.targets(of: clipboard)
      #expect(targets.contains("UTF8_STRING") && targets.contains("STRING"), "\(targets)")
      #expect(try await display.readText(clipboard) == text)
      let string = try await display.read(clipboard, target: "STRING")
      #expect(
        string.data == Data(text.unicodeScalars.map { UInt8($0.value) }), "Tk sends real Latin-1")
      #expect(try await display.decodeText(string) == text)

      // Tk lists MULTIPLE (and its own TK_APPLICATION, TK_WINDOW): one request captures it.
      let offer = try await display.offer(of: clipboard)
      #expect(offer.convertsMultiple, "\(offer.advertised)")
      let (capture, conversions) = try await display.countedCapture(offer, budget: 1 << 20)
      #expect(conversions == 1, "\(offer.essentialTargets.map(\.name))")
      #expect(capture.dataByTarget["UTF8_STRING"] == Data(text.utf8), "\(capture.entries)")
    }
  }
}
