import FerryTestSupport
import Foundation
import Testing
import X11Selections

extension ClipboardInteropTests {
  /// XFixes owner-change events: Ferry taking the selection, xclip taking it, xclip killed.
  @Suite struct OwnerChangeTests {
    /// A display on which nobody owns `CLIPBOARD`, and its owner changes from then on.
    private func watchedDisplay() async throws -> (
      XvfbServer, X11Display, Collected<SelectionOwnerChange>
    ) {
      let (xvfb, display) = try await openDisplay()
      // Whatever the previous test left (a closing display, a stopping peer) is gone first.
      #expect(await display.waitForNoOwner(of: clipboard))
      let changes = Collected(display.ownerChanges(of: [clipboard]))
      do {
        // A round trip after the subscription: the server has selected the events before
        // any owner change the test makes.
        _ = try await display.owner(of: clipboard)
      } catch {
        changes.cancel()
        display.close()
        throw error
      }
      return (xvfb, display, changes)
    }

    @Test func changesAreReportedAsXFixesSeesThem() async throws {
      let (xvfb, display, changes) = try await watchedDisplay()
      defer { display.close() }
      defer { changes.cancel() }

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

    /// A selection set to None is a clear, told apart by whose it was: this process's disown
    /// is its own, `xsel --clear`'s is another program's.
    @Test func aClearIsReportedAsOneAndTheDisownAsThisProcesss() async throws {
      let (xvfb, display, changes) = try await watchedDisplay()
      defer { display.close() }
      defer { changes.cancel() }

      try await display.own(clipboard, item: textItem("given up"))
      #expect(await changes.wait { $0.count == 1 }, "\(changes.all)")
      await display.disown(clipboard)
      #expect(await changes.wait { $0.count == 2 }, "\(changes.all)")

      try await display.own(clipboard, item: textItem("cleared by xsel"))
      #expect(await changes.wait { $0.count == 3 }, "\(changes.all)")
      let xsel = try await startPeer(
        ["xsel", "--clipboard", "--clear"], display: xvfb.name, input: Data())
      defer { xsel.terminate() }
      #expect(await changes.wait { $0.count == 4 }, "\(changes.all)")

      let seen = changes.all
      #expect(seen.map(\.kind) == [.newOwner, .cleared, .newOwner, .cleared], "\(seen)")
      #expect(seen.map(\.isOwnedByThisProcess) == [true, true, true, false], "\(seen)")
      #expect(seen[1].owner == XWindow.none && seen[3].owner == XWindow.none)
    }
  }
}
