import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

extension ClipboardInteropTests {
  /// xsel 1.2.0 as requestor and as owner. As owner it puts raw UTF-8 in STRING (which ICCCM
  /// defines as Latin-1), sends INCR in 4000-byte chunks, and offers UTF8_STRING only when
  /// that atom already exists on the server (it interns it with only-if-exists; Ferry's own
  /// connection interns it, so here it does).
  @Suite struct XselTests {
    @Test func xselReadsFerrysText() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      try await display.own(clipboard, item: textItem("héllo wörld"))
      let paste = try await runPeer(["xsel", "--clipboard", "--output"], display: xvfb.name)
      #expect(paste.status == 0, "\(paste.stderrText)")
      #expect(paste.stdoutText == "héllo wörld", "\(paste.stdout.hex) \(paste.stderrText)")
    }

    @Test func ferryReadsWhatXselOwns() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xsel", "--clipboard", "--input", "--nodetach"], display: xvfb.name,
        input: Data("héllo".utf8))
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)

      let targets = try await display.targets(of: clipboard)
      for target in ["TARGETS", "TIMESTAMP", "MULTIPLE", "TEXT", "UTF8_STRING", "STRING"] {
        #expect(targets.contains(target), "\(targets)")
      }
      #expect(try await display.readText(clipboard) == "héllo", "through UTF8_STRING")
      // xsel's STRING carries UTF-8 bytes; Ferry decodes STRING as ICCCM says, as Latin-1, so a
      // reader that asks xsel for STRING gets mojibake. (xclip -o -t STRING shows it "right"
      // only because it writes the bytes out undecoded.)
      let string = try await display.read(clipboard, target: "STRING")
      #expect(string.type == "STRING" && string.data == Data("héllo".utf8))
      #expect(try await display.decodeText(string) == "hÃ©llo")
    }

    @Test func ferryReadsXselsFourThousandByteIncrChunks() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      // xsel treats its input as a C string: printable bytes only.
      let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 \n".utf8)
      let random = await RandomPayload.bytes(count: 1 << 20, seed: 9)
      let text = Data(random.map { alphabet[Int($0) % alphabet.count] })
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xsel", "--clipboard", "--input", "--nodetach"], display: xvfb.name, input: text)
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)

      let reply = try await display.read(clipboard, target: "STRING")
      #expect(reply.wasIncremental, "xsel sends INCR above 4000 bytes")
      #expect(reply.byteCount == text.count)
      #expect(reply.data == text)
    }
  }
}
