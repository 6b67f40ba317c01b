import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

extension ClipboardInteropTests {
  /// A requestor that stops mid-INCR (our probe, reading the first chunk and never deleting
  /// it) while xclip reads the same 32 MiB item to the end. (The step timeout itself is
  /// tested on a private selection in IncrementalTransferTests, where waiting 5 s does not
  /// hold up this serialized suite.)
  @Suite struct StalledRequestorTests {
    static func transferCount(_ display: X11Display) async throws -> Int {
      try await display.loop.perform { $0.owner.transferCount }
    }

    @Test func xclipCompletesWhileAnotherRequestorIsStalled() async throws {
      // The display's deadlines follow a clock the test never moves: no step timeout ends a
      // transfer here.
      let (xvfb, display) = try await openDisplay(clock: ManualClock())
      defer { display.close() }
      let scratch = try ScratchDirectory("stalled")
      let payload = scratch.file("payload")
      try await RandomPayload.write(count: 32 << 20, seed: 32, to: payload)
      try await display.own(
        clipboard, item: PasteboardItem(representations: [.file(payload, type: .data)]))
      let limit = try await display.maximumRequestBytes

      let staller = try await SelectionProbe.start(
        ["stall", clipboard.rawValue, "application/octet-stream"], display: xvfb.name)
      defer { staller.terminate() }
      try await staller.expectOutput("stalled bytes=\(limit)")

      let received = scratch.file("received")
      let paste = try await runPeer(
        ["xclip", "-o", "-selection", "clipboard", "-t", "application/octet-stream"],
        display: xvfb.name,
        outputFile: received, timeout: .seconds(60))
      #expect(paste.status == 0, "\(paste.stderrText)")
      #expect(try await filesAreEqual(payload, received), "xclip gets all 32 MiB byte for byte")
      #expect(staller.process.isRunning && !staller.outputSoFar.contains("late-chunk"))
      #expect(try await Self.transferCount(display) == 1, "only the stalled transfer is left")

      // When the stalled requestor goes away, its window's DestroyNotify ends the transfer:
      // the step timeout cannot, on this clock.
      _ = await staller.stopped()
      #expect(
        await Deadline.wait(for: .seconds(30)) { (try? await Self.transferCount(display)) == 0 })
    }
  }
}
