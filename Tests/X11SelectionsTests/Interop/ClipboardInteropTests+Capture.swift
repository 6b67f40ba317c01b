import FerryTestSupport
import Foundation
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers
import X11Selections

@testable import X11Selections

/// The one requestor capability against real owners: an offer's targets, captures within a
/// budget that never harm the owner's transfer, and reads that leave nothing behind.
extension ClipboardInteropTests {
  @Suite struct CaptureTests {
    /// Starts `xclip -i` owning `selection` with `data`, and waits until it owns it.
    private func xclip(_ data: Data, _ selection: Selection, display: X11Display, xvfb: XvfbServer)
      async throws -> PeerProcess
    {
      let previous = try await ClipboardInteropTests.freeClipboard(display)
      let owner = try await startPeer(
        ["xclip", "-i", "-quiet", "-selection", selection.rawValue], display: xvfb.name, input: data
      )
      try await ClipboardInteropTests.waitForPeer(display, previous: previous, owner)
      return owner
    }

    /// xclip serves nobody while an INCR transfer waits on its requestor, and has no timeout:
    /// a capture that walked away past its budget left the clipboard dead. Now the transfer is
    /// drained, and another requestor reads the whole copy afterwards.
    @Test(arguments: [0, 1 << 20, 16 << 20])
    func aCapturePastItsBudgetLeavesTheOwnerServing(budget: Int) async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let payload = await RandomPayload.bytes(count: 24 << 20, seed: UInt64(budget) + 7)
      let owner = try await xclip(payload, "CLIPBOARD", display: display, xvfb: xvfb)
      defer { owner.terminate() }

      let offer = try await display.offer(of: .clipboard)
      #expect(offer.targets.map(\.name).contains("UTF8_STRING"))
      let capture = await display.capture(offer, budget: budget, stepTimeout: .seconds(5))
      #expect(capture.byteCount == 0, "nothing over the budget is kept")
      if budget > 0 {
        #expect(capture.entries.contains { $0.failure == .tooLarge(limit: budget) })
      } else {
        #expect(
          capture.entries.allSatisfy { $0.failure == nil && $0.data == nil },
          "a zero budget converts nothing")
      }
      // A third program pastes the whole copy: the owner finished the drained transfer.
      let output = FileManager.default.temporaryDirectory.appendingPathComponent(
        "capture-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: output) }
      let paste = try await runPeer(
        ["sh", "-c", "xclip -o -selection clipboard > \(output.path)"], display: xvfb.name,
        timeout: .seconds(60))
      #expect(paste.status == 0)
      #expect(fileSize(output) == payload.count, "xclip -o got the whole copy")
    }

    @Test func aCaptureWithinItsBudgetHoldsEveryTargetInTheOwnersOrder() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let owner = try await xclip(Data("héllo".utf8), "CLIPBOARD", display: display, xvfb: xvfb)
      defer { owner.terminate() }
      let offer = try await display.offer(of: .clipboard)
      let capture = await display.capture(offer, budget: 1 << 20)
      #expect(capture.isComplete)
      #expect(
        capture.entries.first?.target
          == OwnerOffer.Target(name: "UTF8_STRING", type: .utf8PlainText))
      #expect(capture.entries.first?.data == Data("héllo".utf8))
      let held = try await capture.item.data(for: .utf8PlainText)
      #expect(held == Data("héllo".utf8))
    }

    /// An offer is one owner's: once another owner took the selection, capturing the offer
    /// asks nothing (the new owner's data under the old offer's targets would be a third copy,
    /// neither one), and the item that reads the rest lazily fails instead of reading the
    /// new owner.
    @Test func aCaptureOfAnOfferWhoseOwnerWasReplacedAsksNothing() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let first = try await xclip(Data("first".utf8), "CLIPBOARD", display: display, xvfb: xvfb)
      defer { first.terminate() }
      let offer = try await display.offer(of: .clipboard)
      #expect(offer.owner != nil, "the offer knows who made it")
      let previous = try await display.owner(of: .clipboard)
      let second = try await startPeer(
        ["xclip", "-i", "-quiet", "-selection", "clipboard"], display: xvfb.name,
        input: Data("second".utf8))
      defer { second.terminate() }
      try await ClipboardInteropTests.waitForPeer(display, previous: previous, second)

      let capture = await display.capture(offer, budget: 1 << 20)
      let got = capture.entries.compactMap { $0.data.map { String(decoding: $0, as: UTF8.self) } }
      #expect(capture.byteCount == 0, "captured \(got)")
      #expect(capture.entries.first?.failure == .ownerChanged(.clipboard))
      let lazy = OfferCapture(
        offer: offer, entries: [OfferCapture.Entry(target: offer.targets[0])]
      ).item(readingTheRestFrom: display, stepTimeout: .seconds(5))
      await #expect(throws: (any Error).self) { try await lazy.data(for: offer.targets[0].type) }
      // The offer of the owner now is captured as ever.
      let now = await display.capture(try await display.offer(of: .clipboard), budget: 1 << 20)
      #expect(now.entries.first?.data == Data("second".utf8))
    }

    /// A daemon runs for weeks: what the event loop keeps for a call must go when the call does.
    @Test func callsLeaveNothingRegisteredBehind() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      let owner = try await xclip(Data("small".utf8), "CLIPBOARD", display: display, xvfb: xvfb)
      defer { owner.terminate() }
      for _ in 0..<300 {
        _ = try await display.owner(of: .clipboard)
        _ = try await display.read(.clipboard, target: "UTF8_STRING")
        _ = try? await display.read(.clipboard, target: "image/png")  // refused
      }
      // One registration a call made 900 before calls released theirs; a call just answered
      // may not have released its own yet.
      let left = display.loop.registeredLossHandlers
      #expect(left <= 2, "\(left) handlers registered after 900 calls")
    }
  }
}
