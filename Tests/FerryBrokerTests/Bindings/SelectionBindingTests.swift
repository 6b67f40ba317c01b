import FerryTestSupport
import FoundationEssentials
import Logging
import Pasteboard
import SelectionBackendCore
import SelectionBackendEmbedded
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// The binding — the mirror policy carried out — against the embedded display server, with a
/// manual clock: takeover, restore, supersession, "never overtake a new owner", timeouts and
/// the clipboard-manager hand-over, without an X server. The same rules through real X peers
/// are in Interop/.
@Suite struct SelectionBindingTests {
  /// A binding of a new pasteboard to `role` of an embedded display, running.
  final class Harness: Sendable {
    let clock = ManualClock()
    let backend: EmbeddedSelectionBackend<ManualClock>
    let pasteboard: Pasteboard
    let binding: SelectionBinding
    let running: Task<Void, Never>
    let role: SelectionRole

    /// With a `history`, the pasteboard is a `general` of the harness's own, recorded.
    init(role: SelectionRole = .clipboard, budget: Int = 1 << 20, history: BrokerHistory? = nil)
      async throws
    {
      self.role = role
      pasteboard =
        history == nil
        ? Pasteboard(name: Pasteboard.Name(rawValue: "binding-\(UUID().uuidString)"))
        : Pasteboard(name: .general)
      backend = EmbeddedSelectionBackend(clock: clock)
      binding = SelectionBinding(
        pasteboard: pasteboard, role: role, backend: backend, byteBudget: budget,
        sources: history?.sources, history: history, captureStepTimeout: .seconds(2),
        logger: Logger(label: "binding-test"))
      running = Task { [binding, pasteboard] in
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await binding.run() }
          if let history { group.addTask { await history.follow(pasteboard) } }
        }
      }
      // Subscribed to owner changes, and following the pasteboard: a write is served.
      try #require(await Deadline.wait(for: .seconds(20)) { backend.watcherCount == 1 })
      let probe = PasteboardItem(representations: [.data(Data("probe".utf8), type: .utf8PlainText)])
      let count = pasteboard.write([probe])
      try #require(await binding.published.wait(for: count, within: .seconds(20)))
      try #require(backend.brokerOwns(role))
    }

    /// Stops the binding and closes the display, as the daemon does when it stops: an item
    /// the broker serves holds its binding's `onLost`, which holds the backend, until the
    /// display lets it go (left open, the cycle outlives the test, and LeakSanitizer reports
    /// it).
    deinit {
      running.cancel()
      backend.close()
    }

    /// The pasteboard's first item's text.
    func text() async throws -> String? {
      guard let item = pasteboard.items.first, item.types.contains(.utf8PlainText) else {
        return nil
      }
      return String(decoding: try await item.data(for: .utf8PlainText), as: UTF8.self)
    }

    /// Waits until the pasteboard holds `text` and nothing is being captured.
    func waitForText(_ text: String) async -> Bool {
      await Deadline.wait(for: .seconds(20)) {
        guard !pasteboard.hasPendingWrite else { return false }
        return (try? await self.text()) == text
      }
    }
  }

  private static let json = UTType(exportedAs: "com.example.profile")

  private static func profile(_ name: String) -> [EmbeddedPeerTarget] {
    [
      EmbeddedPeerTarget("application/x-profile", json, Data(#"{"name":"\#(name)"}"#.utf8)),
      .text(name),
    ]
  }

  @Test func aClientsWriteIsServedToPeers() async throws {
    let harness = try await Harness()
    let item = PasteboardItem(representations: [
      .data(Data("from ferry".utf8), type: .utf8PlainText)
    ])
    let count = harness.pasteboard.write([item])
    #expect(await harness.binding.published.wait(for: count, within: .seconds(20)))
    let pasted = try await harness.backend.peerPastes(.clipboard, UTType.utf8PlainText.identifier)
    #expect(String(decoding: pasted, as: UTF8.self) == "from ferry")
  }

  @Test func aPeersCopyIsMirroredInItsOrderAsOneChange() async throws {
    let harness = try await Harness()
    let before = harness.pasteboard.changeCount
    let owns = harness.backend.ownCount(.clipboard)
    harness.backend.peerCopies(.clipboard, Self.profile("Ada"))
    #expect(await harness.waitForText("Ada"))
    #expect(harness.pasteboard.changeCount == before + 1)
    #expect(harness.pasteboard.items.first?.types.prefix(2) == [Self.json, .utf8PlainText])
    #expect(
      harness.backend.ownCount(.clipboard) == owns,
      "a mirrored copy is never taken from its live owner")
  }

  @Test func aGoneOwnersCopyIsServedWithoutAChange() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, Self.profile("Grace"))
    #expect(await harness.waitForText("Grace"))
    let count = harness.pasteboard.changeCount
    harness.backend.peerExits(.clipboard)
    #expect(await Deadline.wait(for: .seconds(20)) { harness.backend.brokerOwns(.clipboard) })
    let pasted = try await harness.backend.peerPastes(.clipboard, Self.json.identifier)
    #expect(String(decoding: pasted, as: UTF8.self) == #"{"name":"Grace"}"#)
    #expect(harness.pasteboard.changeCount == count)
  }

  @Test func aNewOwnerIsNeverOvertaken() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, Self.profile("old"))
    #expect(await harness.waitForText("old"))
    let owns = harness.backend.ownCount(.clipboard)
    // The old owner exits and a new one copies before the broker can take the selection.
    harness.backend.peerExits(.clipboard)
    let newOwner = harness.backend.peerCopies(.clipboard, Self.profile("new"))
    #expect(await harness.waitForText("new"))
    #expect(harness.backend.owner(.clipboard) == newOwner)
    #expect(harness.backend.ownCount(.clipboard) == owns)
  }

  @Test func theSameBytesFromANewOwnerAreNotAChange() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, Self.profile("same"))
    #expect(await harness.waitForText("same"))
    let count = harness.pasteboard.changeCount
    let reads = harness.backend.readCount("UTF8_STRING")
    harness.backend.peerCopies(.clipboard, Self.profile("same"))
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.backend.readCount("UTF8_STRING") > reads && !harness.pasteboard.hasPendingWrite
      })
    #expect(harness.pasteboard.changeCount == count)
  }

  @Test func aBurstOfOwnersEndsInOneCaptureOfTheLast() async throws {
    let harness = try await Harness()
    let before = harness.pasteboard.changeCount
    // The first owner hangs on its text: its capture waits on the clock…
    harness.backend.peerCopies(.clipboard, [EmbeddedPeerTarget("UTF8_STRING", .utf8PlainText, nil)])
    #expect(await Deadline.wait(for: .seconds(20)) { harness.clock.sleeperCount == 1 })
    // …when two more owners take the selection, one after the other.
    harness.backend.peerCopies(.clipboard, [.text("second")])
    harness.backend.peerCopies(.clipboard, [.text("third")])
    #expect(await harness.waitForText("third"))
    harness.clock.advance(by: .seconds(2))  // the hung read ends; its capture is dropped
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.clock.sleeperCount == 0 && !harness.pasteboard.hasPendingWrite
      })
    #expect(try await harness.text() == "third")
    #expect(
      harness.pasteboard.changeCount - before <= 2, "at most the second and the third were recorded"
    )
  }

  @Test func anOwnerThatHangsIsReadUntilItsStepTimeoutThenTheRestStaysLazy() async throws {
    let harness = try await Harness()
    let before = harness.pasteboard.changeCount
    harness.backend.peerCopies(
      .clipboard, [.text("kept"), EmbeddedPeerTarget("image/png", .png, nil)])
    #expect(await Deadline.wait(for: .seconds(20)) { harness.clock.sleeperCount == 1 })
    #expect(harness.pasteboard.hasPendingWrite, "readers wait for the capture, not the stale item")
    #expect(harness.pasteboard.changeCount == before)
    harness.clock.advance(by: .seconds(2))
    #expect(await harness.waitForText("kept"))
    let item = try #require(harness.pasteboard.items.first)
    #expect(
      item.types.contains(.png), "the target that timed out is still offered, read on request")
  }

  @Test func primaryRecordsTargetsAndReadsOnRequest() async throws {
    let harness = try await Harness(role: .primary, budget: 0)
    harness.backend.peerCopies(.primary, [.text("selected")])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite
          && harness.pasteboard.items.first?.representations.first?.isLazy == true
      })
    #expect(harness.backend.readCount("UTF8_STRING") == 0, "a zero budget reads nothing up front")
    #expect(try await harness.text() == "selected")
    #expect(harness.backend.readCount("UTF8_STRING") == 1)
    harness.backend.peerExits(.primary)
    #expect(
      await Deadline.wait(for: .seconds(20)) { harness.pasteboard.items.isEmpty },
      "a budget of zero keeps nothing of an owner that went, even what was read")
    #expect(
      harness.backend.owner(.primary) == nil, "PRIMARY's targets alone are nothing to take over")
  }

  /// Issue 31: a copy past the budget that a paste read in full is kept when its owner goes —
  /// served, without a change — and what nobody read of it is not offered any more.
  @Test func aCopyPastTheBudgetReadInFullIsKeptWhenItsOwnerGoes() async throws {
    let harness = try await Harness(budget: 4)
    let text = String(repeating: "past the budget ", count: 100_000)
    harness.backend.peerCopies(
      .clipboard, [.text(text), EmbeddedPeerTarget("text/html", .html, Data("<b>unread</b>".utf8))])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite
          && harness.pasteboard.items.first?.representations.allSatisfy(\.isLazy) == true
      }, "nothing fits in 4 bytes")
    let item = try #require(harness.pasteboard.items.first)
    guard case .file = try await item.payload(for: .utf8PlainText) else {
      Issue.record("1.6 MB read from the owner goes to a spool file")
      return
    }
    let count = harness.pasteboard.changeCount
    harness.backend.peerExits(.clipboard)
    #expect(await Deadline.wait(for: .seconds(20)) { harness.backend.brokerOwns(.clipboard) })
    let pasted = try await harness.backend.peerPastes(
      .clipboard, UTType.utf8PlainText.identifier)
    #expect(pasted == Data(text.utf8), "peers get the bytes read in full")
    #expect(harness.pasteboard.changeCount == count, "keeping the copy is not a change")
    let kept = try #require(harness.pasteboard.items.first)
    #expect(kept.storedTypes == [.utf8PlainText], "the target nobody read is gone")
    #expect(kept.representations.allSatisfy { !$0.isLazy }, "nothing is asked of the owner again")
    #expect(try await kept.data(for: .utf8PlainText) == Data(text.utf8))
  }

  /// Issue 31: the history records a copy past the budget once a paste has read it in full
  /// and its owner has gone; the entry recorded when it was made, of the captured target
  /// only, gives way to it: one copy, one entry.
  @Test func aKeptCopyReplacesItsPartialHistoryEntry() async throws {
    let directory = URL(fileURLWithPath: try makeTemporaryDirectory())
    defer { try? FileManager.default.removeItem(at: directory) }
    let history = try BrokerHistory(
      directory: directory, settings: HistorySettings(), logger: Logger(label: "binding-test"))
    let harness = try await Harness(budget: 64, history: history)
    let text = String(repeating: "past the budget ", count: 100_000)
    harness.backend.peerCopies(
      .clipboard, [EmbeddedPeerTarget("text/html", .html, Data("<b>fits</b>".utf8)), .text(text)])
    let entries = { (try? history.store.list(limit: 10)) ?? [] }
    #expect(
      await Deadline.wait(for: .seconds(20)) { entries().contains { $0.types == ["public.html"] } },
      "the copy is recorded as made, with what was captured: \(entries().map(\.types))")
    let item = try #require(harness.pasteboard.items.first)
    #expect(try await item.data(for: .utf8PlainText) == Data(text.utf8))
    harness.backend.peerExits(.clipboard)
    let full = ["public.html", "public.utf8-plain-text"]
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        entries().contains { $0.types == full }
          && !entries().contains { $0.types == ["public.html"] }
      }, "the kept copy replaces the partial entry: \(entries().map(\.types))")
    #expect(entries().first?.types == full, "newest first")
    #expect(entries().first?.totalSize == Int64(11 + text.utf8.count))
  }

  /// Issue 31: a copy past the budget that nobody read is gone when its owner goes: the
  /// pasteboard is cleared (one change), as the selection is, and the broker does not own it.
  @Test func aCopyPastTheBudgetNobodyReadIsForgottenWhenItsOwnerGoes() async throws {
    let harness = try await Harness(budget: 4)
    harness.backend.peerCopies(.clipboard, [.text(String(repeating: "unread ", count: 1000))])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite
          && harness.pasteboard.items.first?.representations.first?.isLazy == true
      })
    let count = harness.pasteboard.changeCount
    harness.backend.peerExits(.clipboard)
    #expect(await Deadline.wait(for: .seconds(20)) { harness.pasteboard.items.isEmpty })
    #expect(harness.pasteboard.changeCount == count + 1)
    #expect(harness.backend.owner(.clipboard) == nil)
  }

  /// The seam's lazy read (Wayland's and the embedded display's, through
  /// `OfferCapture.item(readingTheRestWith:streamingWith:stepTimeout:)`) streams to a file of
  /// the item's spool, removed with the item; a concealed item's stays in memory.
  @Test func aLazyReadThroughTheSeamGoesToTheSpool() async throws {
    let backend = EmbeddedSelectionBackend(clock: ManualClock())
    let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    backend.peerCopies(.clipboard, [EmbeddedPeerTarget("application/octet-stream", .data, bytes)])
    let offer = try await backend.offer(of: .clipboard, stepTimeout: .seconds(2))
    let capture = await backend.capture(offer, budget: 1 << 20, stepTimeout: .seconds(2))
    #expect(capture.captured.isEmpty, "3 MiB is past a budget of 1 MiB")
    var item: PasteboardItem? = backend.item(capture, readingTheRestWithin: .seconds(2))
    guard case .file(let url) = try await item!.payload(for: .data) else {
      Issue.record("a read past the in-memory limit goes to the spool")
      return
    }
    #expect(try Data(contentsOf: url) == bytes)
    item = nil
    #expect(!FileManager.default.fileExists(atPath: url.path), "the file goes with its item")

    let concealed = OfferCapture(
      offer: OwnerOffer(role: .clipboard, targets: offer.targets, isConcealed: true),
      entries: capture.entries)
    let secret = backend.item(concealed, readingTheRestWithin: .seconds(2))
    #expect(secret.options.contains(.concealed))
    guard case .data(let data) = try await secret.payload(for: .data) else {
      Issue.record("a concealed item's bytes never touch the disk")
      return
    }
    #expect(data == bytes)
  }

  @Test func restoreTakesOnlyAnUnownedSelection() async throws {
    let harness = try await Harness()
    await harness.backend.disown(.clipboard)
    let restored = PasteboardItem(representations: [
      .data(Data("restored".utf8), type: .utf8PlainText)
    ])
    #expect(await harness.binding.restore(restored))
    #expect(harness.backend.brokerOwns(.clipboard))
    #expect(try await harness.text() == "restored")

    let owned = try await Harness()
    owned.backend.peerCopies(.clipboard, [.text("live")])
    #expect(await owned.waitForText("live"))
    let count = owned.pasteboard.changeCount
    #expect(await !owned.binding.restore(restored))
    #expect(owned.pasteboard.changeCount == count)
    #expect(!owned.backend.brokerOwns(.clipboard))
  }

  @Test func aClearDisowns() async throws {
    let harness = try await Harness()
    let count = harness.pasteboard.clearContents()
    #expect(await harness.binding.published.wait(for: count, within: .seconds(20)))
    #expect(!harness.backend.brokerOwns(.clipboard))
  }

  @Test func savingForAnExitingOwnerKeepsItsCopyWithoutAChange() async throws {
    let harness = try await Harness()
    let manager = try #require(harness.backend.clipboardManager)
    #expect(
      try await manager.becomeClipboardManager(
        save: { await harness.binding.saveForExitingOwner($0) }, onLost: {}))
    harness.backend.peerCopies(.clipboard, Self.profile("Linus"))
    #expect(await harness.waitForText("Linus"))
    let count = harness.pasteboard.changeCount
    #expect(await harness.backend.peerAsksToSave())
    #expect(harness.backend.brokerOwns(.clipboard))
    #expect(harness.pasteboard.changeCount == count, "the copy already mirrored is not a change")
    let pasted = try await harness.backend.peerPastes(.clipboard, Self.json.identifier)
    #expect(String(decoding: pasted, as: UTF8.self) == #"{"name":"Linus"}"#)
  }

  @Test func savingOnlyTheTargetsAskedFor() async throws {
    let harness = try await Harness()
    let manager = try #require(harness.backend.clipboardManager)
    _ = try await manager.becomeClipboardManager(
      save: { await harness.binding.saveForExitingOwner($0) }, onLost: {})
    harness.backend.peerCopies(.clipboard, Self.profile("Alan"))
    #expect(await harness.waitForText("Alan"))
    #expect(await harness.backend.peerAsksToSave(["UTF8_STRING"]))
    #expect(harness.pasteboard.items.first?.types.first == .utf8PlainText)
    #expect(harness.pasteboard.items.first?.types.contains(Self.json) == false)
    harness.backend.peerExits(.clipboard)  // nothing happens: the broker owns it already
    #expect(harness.backend.brokerOwns(.clipboard))
  }

  @Test func aSecondManagerIsNotTakenFrom() async throws {
    let harness = try await Harness()
    let manager = try #require(harness.backend.clipboardManager)
    #expect(try await manager.becomeClipboardManager(save: { _ in true }, onLost: {}))
    #expect(try await !manager.becomeClipboardManager(save: { _ in true }, onLost: {}))
  }

  @Test func aClientsCopyHandedBackByABridgeIsNotASecondChange() async throws {
    let harness = try await Harness()
    let item = PasteboardItem(representations: [.data(Data("bridged".utf8), type: .utf8PlainText)])
    let count = harness.pasteboard.write([item])
    #expect(await harness.binding.published.wait(for: count, within: .seconds(20)))
    let reads = harness.backend.readCount("UTF8_STRING")
    // Another display server's bridge copies what Ferry serves, and offers the same bytes.
    harness.backend.peerCopies(.clipboard, [.text("bridged")])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.backend.readCount("UTF8_STRING") > reads && !harness.pasteboard.hasPendingWrite
      })
    #expect(harness.pasteboard.changeCount == count)
  }

  /// GTK sets valid empty selections; a manager that re-offers its own copy over one breaks
  /// the program (KDE bug 517573). The binding records it and leaves it in place (when its
  /// owner goes there is nothing to serve: `MirrorPolicyTests`).
  @Test func aValidEmptySelectionIsLeftAlone() async throws {
    let harness = try await Harness()
    harness.backend.peerCopies(.clipboard, [.text("before")])
    #expect(await harness.waitForText("before"))
    let owns = harness.backend.ownCount(.clipboard)
    let empty = harness.backend.peerCopies(.clipboard, [])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite && harness.pasteboard.items.first?.types.isEmpty == true
      })
    #expect(harness.backend.owner(.clipboard) == empty)
    #expect(harness.backend.ownCount(.clipboard) == owns)
  }
}
