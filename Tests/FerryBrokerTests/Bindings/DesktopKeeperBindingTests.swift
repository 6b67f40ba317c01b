import FerryTestSupport
import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import SelectionBackendEmbedded
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// The binding and a desktop's own keeper of the clipboard (GNOME's Mutter, which restores one
/// type of a copy whose owner went), on the embedded display server: the whole copy is served
/// in the keeper's place, without a change; a keeper's copy of something else is a copy.
@Suite struct DesktopKeeperBindingTests {
  typealias Harness = SelectionBindingTests.Harness

  private static let html = UTType.html

  private static func rich(_ text: String) -> [EmbeddedPeerTarget] {
    [
      EmbeddedPeerTarget("text/html", html, Data("<b>\(text)</b>".utf8)),
      .text(text),
    ]
  }

  @Test func theWholeCopyReplacesTheKeepersPartWithoutAChange() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, Self.rich("Ada"))
    #expect(await harness.waitForText("Ada"))
    let count = harness.pasteboard.changeCount
    harness.backend.desktopKeeps(.clipboard, [.text("Ada")])
    #expect(await Deadline.wait(for: .seconds(20)) { harness.backend.brokerOwns(.clipboard) })
    let pasted = try await harness.backend.peerPastes(.clipboard, Self.html.identifier)
    #expect(String(decoding: pasted, as: UTF8.self) == "<b>Ada</b>")
    #expect(harness.pasteboard.changeCount == count)
  }

  @Test func aKeepersCopyOfOtherBytesIsANewCopy() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, Self.rich("Ada"))
    #expect(await harness.waitForText("Ada"))
    let owns = harness.backend.ownCount(.clipboard)
    let keeper = harness.backend.desktopKeeps(.clipboard, [.text("Grace")])
    #expect(await harness.waitForText("Grace"))
    #expect(harness.backend.owner(.clipboard) == keeper, "never taken from it")
    #expect(harness.backend.ownCount(.clipboard) == owns)
  }

  @Test func aKeeperHoldingTheWholeCopyIsLeftAlone() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, [.text("only text")])
    #expect(await harness.waitForText("only text"))
    let count = harness.pasteboard.changeCount
    let reads = harness.backend.readCount("UTF8_STRING")
    let keeper = harness.backend.desktopKeeps(.clipboard, [.text("only text")])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.backend.readCount("UTF8_STRING") > reads && !harness.pasteboard.hasPendingWrite
      })
    #expect(harness.backend.owner(.clipboard) == keeper, "it serves all there is")
    #expect(harness.pasteboard.changeCount == count)
  }

  @Test func theKeepersPlaceIsNotTakenOnceANewOwnerHasIt() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, Self.rich("old"))
    #expect(await harness.waitForText("old"))
    let keeper = harness.backend.desktopKeeps(.clipboard, [.text("old")])
    let newOwner = harness.backend.peerCopies(.clipboard, Self.rich("new"))
    #expect(await harness.waitForText("new"))
    let keeperReplaced = harness.backend.owner(.clipboard) != newOwner
    #expect(!keeperReplaced, "the new copy keeps the selection")
    // The keeper itself can no longer be replaced: its restore is not the owner.
    await #expect(throws: BackendError.ownershipRefused(.clipboard)) {
      try await harness.backend.desktopKeeper?.replace(
        .clipboard, keptBy: keeper,
        with: PasteboardItem(representations: [.data(Data("x".utf8), type: .utf8PlainText)]),
        onLost: {})
    }
  }
}
