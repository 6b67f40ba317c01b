import FerryTestSupport
import Foundation
import Testing
import X11Selections

extension ClipboardInteropTests {
  /// XFixes owner-change events: Ferry taking the selection, xclip taking it, xclip killed.
  @Suite struct OwnerChangeTests {
    @Test func changesAreReportedAsXFixesSeesThem() async throws {
      let (xvfb, display) = try await openDisplay()
      defer { display.close() }
      // Whatever the previous test left (a closing display, a stopping peer) is gone first.
      #expect(await display.waitForNoOwner(of: clipboard))
      let changes = Collected(display.ownerChanges(of: [clipboard]))
      defer { changes.cancel() }
      // A round trip after the subscription: the server has selected the events before any
      // owner changes below.
      _ = try await display.owner(of: clipboard)

      try await display.own(clipboard, item: textItem("ferry"))
      let ferryWindow = try await display.owner(of: clipboard)
      #expect(
        await changes.wait { $0.contains { $0.kind == .newOwner && $0.owner == ferryWindow } },
        "\(changes.all)")

      let xclip = try await startPeer(
        ["xclip", "-selection", "clipboard", "-i", "-quiet"], display: xvfb.name,
        input: Data("xclip".utf8))
      defer { xclip.terminate() }
      try await waitForPeer(display, previous: ferryWindow, xclip)
      let xclipWindow = try await display.owner(of: clipboard)
      #expect(
        await changes.wait { $0.contains { $0.kind == .newOwner && $0.owner == xclipWindow } },
        "\(changes.all)")

      _ = await xclip.stopped(signal: SIGKILL)
      #expect(await changes.wait { $0.contains { $0.kind == .clientClosed } }, "\(changes.all)")

      let seen = changes.all
      #expect(seen.map(\.kind) == [.newOwner, .newOwner, .clientClosed], "\(seen)")
      #expect(seen.map(\.isOwnedByThisProcess) == [true, false, false])
      #expect(seen.allSatisfy { $0.selection == clipboard })
      #expect(seen.last?.owner == XWindow.none)
      #expect(seen[0].time < seen[1].time && !(seen[2].time < seen[1].time))
    }
  }
}
