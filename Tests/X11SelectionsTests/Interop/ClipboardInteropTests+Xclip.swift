import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

extension ClipboardInteropTests {
  /// xclip 0.13 as requestor and as owner. xclip answers every target with the same bytes and
  /// returns UTF-8 for STRING, so these tests prove interoperability only; the probe tests
  /// prove what is on the wire.
  @Suite struct XclipTests {
    @Test func xclipReadsFerrysTextInTheTargetsItAsksFor() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      try await display.own(clipboard, item: textItem("héllo wörld"))

      let plain = try await runPeer(["xclip", "-o", "-selection", "clipboard"], display: xvfb.name)
      #expect(plain.status == 0, "\(plain.stderrText)")
      #expect(plain.stdoutText == "héllo wörld", "\(plain.stdout.hex) \(plain.stderrText)")
      let targets = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"], display: xvfb.name)
      let names = targets.stdoutText.split(separator: "\n").map(String.init)
      #expect(
        names == (try await display.targets(of: clipboard)), "xclip lists Ferry's TARGETS in order")
      let latin1 = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "STRING"], display: xvfb.name)
      #expect(
        latin1.stdout == Data("héllo wörld".unicodeScalars.map { UInt8($0.value) }),
        "Ferry sends Latin-1")
      let mime = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "text/plain;charset=utf-8"],
        display: xvfb.name)
      #expect(mime.stdoutText == "héllo wörld")
    }

    @Test func xclipIsRefusedATargetFerryDoesNotOffer() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      try await display.own(clipboard, item: textItem("text only"))
      let png = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "image/png"], display: xvfb.name)
      #expect(png.status != 0 && png.stdout.isEmpty, "\(png.stdoutText) \(png.stderrText)")
      #expect(
        png.stderrText.contains("image/png"), "xclip names the refused target: \(png.stderrText)")
    }

    @Test func ferryReadsWhatXclipOwns() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xclip", "-selection", "clipboard", "-i", "-quiet"], display: xvfb.name,
        input: Data("héllo wörld".utf8))
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)

      #expect(try await display.targets(of: clipboard) == ["TARGETS", "UTF8_STRING"])
      #expect(try await display.readText(clipboard) == "héllo wörld")
      let utf8 = try await display.read(clipboard, target: "UTF8_STRING")
      #expect(utf8.type == "UTF8_STRING" && utf8.format == 8 && !utf8.wasIncremental)
      // xclip answers any target with its bytes, even one it does not list: no oracle.
      let png = try await display.read(clipboard, target: "image/png")
      #expect(png.data == Data("héllo wörld".utf8))
    }

    @Test func ferryReadsAMimeTargetXclipOwns() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let html = Data("<b>bold</b> ünïcode".utf8)
      let owner = try await startPeer(
        ["xclip", "-selection", "clipboard", "-t", "text/html", "-i", "-quiet"], display: xvfb.name,
        input: html)
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)
      #expect(try await display.targets(of: clipboard) == ["TARGETS", "text/html"])
      let reply = try await display.read(clipboard, target: "text/html")
      #expect(reply.type == "text/html" && reply.data == html)
    }

    @Test func ownershipPassesToXclipAndBack() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let lost = Counter()
      try await display.own(clipboard, item: textItem("from ferry"), onLost: { lost.increment() })
      let ferryWindow = try await display.owner(of: clipboard)

      let xclip = try await startPeer(
        ["xclip", "-selection", "clipboard", "-i", "-quiet"], display: xvfb.name,
        input: Data("from xclip".utf8))
      defer { xclip.terminate() }
      try await waitForPeer(display, previous: ferryWindow, xclip)
      #expect(
        await Deadline.wait(for: .seconds(5)) { () async -> Bool in lost.value == 1 },
        "onLost runs once on SelectionClear")
      #expect(try await !display.owns(clipboard))
      #expect(try await display.readText(clipboard) == "from xclip")

      // Taking it back with a real server time: xclip (which took it with CurrentTime) gets
      // SelectionClear and exits, as it does on losing the selection.
      try await display.own(clipboard, item: textItem("ferry again"))
      let exited = await xclip.finished(timeout: .seconds(5))
      #expect(exited.status == 0, "xclip exits on SelectionClear: \(exited.stderrText)")
      let paste = try await runPeer(["xclip", "-o", "-selection", "clipboard"], display: xvfb.name)
      #expect(paste.stdoutText == "ferry again")
      #expect(lost.value == 1)
    }

    @Test func primaryWorksLikeClipboard() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      try await display.own(.primary, item: textItem("primary text"))
      let paste = try await runPeer(["xclip", "-o", "-selection", "primary"], display: xvfb.name)
      #expect(paste.stdoutText == "primary text")
      await display.disown(.primary)
      #expect(await display.waitForNoOwner(of: .primary))
    }
  }
}
