import FerryTestSupport
import Foundation
import Testing
import X11Selections

extension ClipboardInteropTests {
  /// Issue 19: old readers of `STRING` and `text/plain` get from Ferry exactly what a GTK 3
  /// owner of the same text serves them — read by GTK, Tk and xclip, byte for byte.
  @Suite struct LegacyTextTests {
    static let targets = ["STRING", "text/plain"]

    /// What each reader got, by reader and target: raw bytes (xclip, GTK's `hex=`) or the
    /// decoded text (Tk, GTK's `text=`).
    func readAll(_ xvfb: XvfbServer) async throws -> [String: String] {
      var seen: [String: String] = [:]
      for target in Self.targets {
        let xclip = try await runPeer(
          ["xclip", "-o", "-selection", "clipboard", "-t", target], display: xvfb.name)
        #expect(xclip.status == 0, "xclip -t \(target): \(xclip.stderrText)")
        seen["xclip \(target)"] = xclip.stdout.hex
      }
      let gtk = try await ScriptPeer.gtk.run(["read"] + Self.targets, display: xvfb.name)
      let gtkLines = ScriptReadLine.parse(gtk.stdoutText)
      let tk = try await ScriptPeer.tk.run(["read"] + Self.targets, display: xvfb.name)
      let tkLines = ScriptReadLine.parse(tk.stdoutText)
      for target in Self.targets {
        seen["gtk \(target) bytes"] =
          gtkLines[target]?.fields?["hex"] ?? "refused: \(gtk.stdoutText)"
        seen["gtk \(target) text"] = gtkLines[target]?.fields?["text"] ?? "refused"
        seen["tk \(target)"] = tkLines[target]?.fields?["text"] ?? "refused: \(tk.stdoutText)"
      }
      return seen
    }

    @Test(arguments: ["plain ascii\nnext line", "héllo wörld ÿ", "Grüße — 日本語 😀"])
    func oldReadersGetWhatAGTKOwnerServes(text: String) async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let gtkOwner = try await ScriptPeer.gtk.start(
        [
          "own", text, "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING", "text/plain;charset=utf-8",
          "text/plain",
        ],
        display: xvfb.name)
      defer { gtkOwner.terminate() }
      try await gtkOwner.expectOutput("ready")
      try await ClipboardInteropTests.waitForPeer(display, previous: previous, gtkOwner)
      let fromGTK = try await readAll(xvfb)
      #expect(
        !fromGTK.values.contains { $0.hasPrefix("refused") }, "GTK serves every reader: \(fromGTK)")

      try await display.own(clipboard, item: textItem(text))
      let targets = try await display.targets(of: clipboard)
      #expect(targets.contains("STRING") && targets.contains("text/plain"), "\(targets)")
      let fromFerry = try await readAll(xvfb)
      for key in fromGTK.keys.sorted() {
        #expect(fromFerry[key] == fromGTK[key], "\(key) of \(text.debugDescription)")
      }
    }
  }
}
