import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

extension ClipboardInteropTests {
  /// Captures from owners that take only `CLIPBOARD`-like selections: Qt 5 lists `MULTIPLE`
  /// and is asked for its targets in one request (so is Tk, in `TkTests`); xsel lists it but
  /// dies of it, and xclip does not list it: both are asked one target at a time.
  @Suite struct MultipleCaptureTests {
    /// Starts `ScriptPeer.qt` owning `CLIPBOARD` with `file`'s bytes as text and as `types`.
    private func qt(_ file: URL, types: [String], display: X11Display, xvfb: XvfbServer)
      async throws -> PeerProcess
    {
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await ScriptPeer.qt.start(
        ["clipboard", "@" + file.path] + types, display: xvfb.name)
      try await owner.expectOutput("ready")
      try await waitForPeer(display, previous: previous, owner)
      return owner
    }

    @Test func qtsOfferIsCapturedInOneRequest() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let scratch = try ScratchDirectory("multiqt")
      let text = "from qt ünïcode"
      try Data(text.utf8).write(to: scratch.file("text"))
      let owner = try await qt(
        scratch.file("text"), types: ["text/html", "application/x-ferry-qt"], display: display,
        xvfb: xvfb)
      defer { owner.terminate() }

      let offer = try await display.offer(of: clipboard)
      #expect(offer.convertsMultiple, "\(offer.advertised)")
      let names = offer.essentialTargets.map(\.name)
      #expect(
        names.contains("text/html") && names.contains("application/x-ferry-qt")
          && names.contains("UTF8_STRING"), "\(names)")
      let (capture, conversions) = try await display.countedCapture(offer, budget: 1 << 20)
      #expect(conversions == 1, "one MULTIPLE request for \(names)")
      #expect(
        capture.isComplete,
        "\(capture.entries.map { "\($0.target.name): \(String(describing: $0.failure))" })")
      #expect(capture.dataByTarget["UTF8_STRING"] == Data(text.utf8))
      #expect(capture.dataByTarget["text/html"] == Data(text.utf8))
      #expect(capture.dataByTarget["application/x-ferry-qt"] == Data(text.utf8))
    }

    /// xsel 1.2.0 lists `MULTIPLE` but exits on any `MULTIPLE` request: it is asked one target
    /// at a time, and still serves the whole copy afterwards.
    @Test(arguments: [17, 1 << 20])
    func xselIsNeverAskedForMultiple(size: Int) async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let line = Data("xsel multiple 0123456789\n".utf8)
      var text = Data()
      while text.count < size { text.append(line) }
      text = text.prefix(size)
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xsel", "--clipboard", "--input", "--nodetach"], display: xvfb.name, input: text)
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)

      let offer = try await display.offer(of: clipboard)
      #expect(offer.offersMultiple && !offer.convertsMultiple, "\(offer.advertised)")
      // xsel's UTF8_STRING makes TEXT a mere alias: both are asked for by name here.
      let targets = offer.targets(named: ["UTF8_STRING", "TEXT"])
      let (capture, conversions) = try await display.countedCapture(
        offer, targets: targets, budget: 64 << 20)
      #expect(conversions == 2)
      #expect(
        capture.dataByTarget["UTF8_STRING"] == text,
        "\(capture.entries.map { String(describing: $0.failure) }) \(owner.errorSoFar)")
      #expect(capture.dataByTarget["TEXT"] == text)
      let paste = try await runPeer(
        ["sh", "-c", "xclip -o -selection clipboard | wc -c"], display: xvfb.name,
        timeout: .seconds(60))
      #expect(
        paste.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "\(size)",
        "xsel still serves")
    }

    @Test func xclipListsNoMultipleAndIsAskedOneTargetAtATime() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xclip", "-i", "-quiet", "-selection", "clipboard"], display: xvfb.name,
        input: Data("xclip".utf8))
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)

      let offer = try await display.offer(of: clipboard)
      #expect(!offer.offersMultiple)
      // xclip answers any target with its bytes.
      let targets = offer.targets(named: ["UTF8_STRING", "text/plain;charset=utf-16"])
      #expect(targets.count == 2)
      let (capture, conversions) = try await display.countedCapture(
        offer, targets: targets, budget: 1 << 20)
      #expect(conversions == 2)
      #expect(capture.isComplete)
      #expect(capture.entries.allSatisfy { $0.data == Data("xclip".utf8) })
    }
  }
}
