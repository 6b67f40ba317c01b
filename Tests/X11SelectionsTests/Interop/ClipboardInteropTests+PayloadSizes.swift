import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

extension ClipboardInteropTests {
  /// Binary payloads byte for byte in both directions with xclip, around xclip's INCR
  /// threshold (1 MiB − 1: one request; 1 MiB: INCR in 1 MiB − 1 chunks) and at 64 MiB.
  /// Payloads live in files: Ferry serves a file representation by streaming it, xclip writes
  /// to a file, Ferry reads into a descriptor, and files are compared a block at a time.
  @Suite struct PayloadSizeTests {
    static let sizes = [1, 1_048_575, 1_048_576, 64 << 20]
    /// xclip sends INCR above `XExtendedMaxRequestSize / 4` bytes: 1048575 on Xvfb.
    static let xclipIncrThreshold = 1_048_575

    @Test(arguments: sizes)
    func ferryToXclip(size: Int) async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let scratch = try ScratchDirectory("toxclip")
      let payload = scratch.file("payload")
      try await RandomPayload.write(count: size, seed: UInt64(size), to: payload)
      try await display.own(
        clipboard, item: PasteboardItem(representations: [.file(payload, type: .data)]))

      let received = scratch.file("received")
      let paste = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "application/octet-stream"],
        display: xvfb.name,
        outputFile: received, timeout: .seconds(60))
      #expect(paste.status == 0, "\(paste.stderrText)")
      #expect(fileSize(received) == size)
      #expect(try await filesAreEqual(payload, received))
    }

    @Test(arguments: sizes)
    func xclipToFerry(size: Int) async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let scratch = try ScratchDirectory("fromxclip")
      let payload = scratch.file("payload")
      try await RandomPayload.write(count: size, seed: UInt64(size) &+ 1, to: payload)
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xclip", "-selection", "clipboard", "-t", "application/octet-stream", "-i", "-quiet"],
        display: xvfb.name,
        inputFile: payload)
      defer { owner.terminate() }
      try await waitForPeer(display, previous: previous, owner)

      let received = scratch.file("received")
      let descriptor = open(received.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      try #require(descriptor >= 0)
      let reply: SelectionData
      do {
        defer { close(descriptor) }
        reply = try await display.read(
          clipboard, target: "application/octet-stream", into: .fileDescriptor(descriptor))
      }
      #expect(reply.type == "application/octet-stream" && reply.format == 8)
      #expect(reply.byteCount == size && reply.data.isEmpty)
      #expect(reply.wasIncremental == (size > Self.xclipIncrThreshold))
      #expect(try await filesAreEqual(payload, received))
    }
  }
}
