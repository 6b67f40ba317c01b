import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers
import WaylandSelections

/// The Wayland backend against headless sway 1.7 (`zwlr_data_control_manager_v1` v2) and
/// wl-clipboard: offers in the owner's order, captures, Ferry's own selections served to
/// wl-paste on both selections, owner changes with Ferry's own told apart, and its own offer
/// read without a deadlock.
@Suite(.serialized, .skipsWithoutPeers) struct WaylandSelectionBackendTests {
  let session: WaylandSession
  let backend: WaylandSelectionBackend

  init() async throws {
    session = try await WaylandSession.dedicated("WaylandSelectionBackendTests")
    backend = try WaylandSelectionBackend(socket: session.socketPath)
  }

  private static let profile = UTType(exportedAs: "com.example.profile")

  private func item(_ text: String) -> PasteboardItem {
    PasteboardItem(representations: [
      .data(Data(#"{"name":"\#(text)"}"#.utf8), type: Self.profile),
      .data(Data(text.utf8), type: .utf8PlainText),
    ])
  }

  @Test func aWlCopyIsOfferedInItsOrderAndCaptured() async throws {
    #expect(
      try await session.runServing(["wl-copy", "--type", "text/html", "<b>ferry</b>"]).status == 0)
    let offer = try await backend.offer(of: .clipboard, stepTimeout: .seconds(5))
    #expect(offer.targets.first?.name == "text/html")
    #expect(offer.targets.first?.type == .html)
    #expect(offer.targets.contains { $0.type == .utf8PlainText })
    let capture = await backend.capture(
      offer, targets: offer.essentialTargets, budget: 1 << 20, stepTimeout: .seconds(5))
    #expect(capture.entries.first.flatMap(\.data) == Data("<b>ferry</b>".utf8))
    #expect(
      capture.isComplete,
      "\(capture.entries.map { "\($0.target.name): \($0.failure.map { "\($0)" } ?? "ok")" })")
  }

  @Test func ferrysCopyPastesInWlPasteWithItsTypesInOrder() async throws {
    try await backend.own(.clipboard, item: item("Ada"))
    let types = try await session.run(["wl-paste", "--list-types"])
    let listed = types.stdoutText.split(separator: "\n").map(String.init)
    #expect(listed.prefix(2) == ["com.example.profile", "text/plain;charset=utf-8"], "\(listed)")
    #expect(
      listed.contains("UTF8_STRING") && listed.contains("text/plain") && listed.contains("STRING"))
    let text = try await session.run([
      "wl-paste", "--no-newline", "--type", "text/plain;charset=utf-8",
    ])
    #expect(text.stdoutText == "Ada")
    let json = try await session.run(["wl-paste", "--type", "com.example.profile"])
    #expect(json.stdoutText == #"{"name":"Ada"}"#)
  }

  @Test func primaryBothWays() async throws {
    #expect(try await session.runServing(["wl-copy", "--primary", "selected"]).status == 0)
    let offer = try await backend.offer(of: .primary, stepTimeout: .seconds(5))
    let capture = await backend.capture(offer, budget: 1 << 20, stepTimeout: .seconds(5))
    #expect(
      capture.entries.first { $0.target.type == .utf8PlainText }?.data == Data("selected".utf8))
    try await backend.own(.primary, item: item("from ferry"))
    #expect(
      try await session.run(["wl-paste", "--primary", "--no-newline"]).stdoutText == "from ferry")
  }

  @Test func ownerChangesTellFerrysOwnFromOthers() async throws {
    var changes = backend.ownerChanges(of: [.clipboard]).makeAsyncIterator()
    #expect(try await session.runServing(["wl-copy", "peer"]).status == 0)
    let peer = try #require(await changes.next())
    #expect(peer.kind == .newOwner && !peer.isOwnedByThisProcess)
    try await backend.own(.clipboard, item: item("mine"))
    let mine = try #require(await changes.next())
    #expect(mine.kind == .newOwner && mine.isOwnedByThisProcess)
    #expect(mine.owner != peer.owner)
    #expect(try await session.runServing(["wl-copy", "again"]).status == 0)
    let again = try #require(await changes.next())
    #expect(again.kind == .newOwner && !again.isOwnedByThisProcess)
    #expect(try await session.run(["wl-copy", "--clear"]).status == 0)
    let cleared = try #require(await changes.next())
    #expect(cleared.kind == .ownerGone)
  }

  @Test func ferryReadsItsOwnCopyWithoutADeadlock() async throws {
    try await backend.own(.clipboard, item: item("round trip"))
    let offer = try await backend.offer(of: .clipboard, stepTimeout: .seconds(5))
    let capture = await backend.capture(offer, budget: 1 << 20, stepTimeout: .seconds(5))
    #expect(
      capture.entries.first { $0.target.type == .utf8PlainText }?.data == Data("round trip".utf8))
    #expect(
      !offer.targets.contains { $0.name.hasPrefix("application/x-ferry-owner") },
      "the marker is not a target")
  }

  @Test func aTakeOnlyIfUnownedLeavesAPeersCopyAlone() async throws {
    #expect(try await session.runServing(["wl-copy", "the peer's"]).status == 0)
    await #expect(throws: BackendError.ownershipRefused(.clipboard)) {
      try await backend.own(.clipboard, item: item("mine"), onlyIfUnowned: true)
    }
    #expect(try await session.run(["wl-paste", "--no-newline"]).stdoutText == "the peer's")
  }

  @Test func tenMebibytesEachWay() async throws {
    let bytes = Data((0..<(10 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 13) })
    #expect(
      try await session.runServing(["wl-copy", "--type", "application/octet-stream"], input: bytes)
        .status == 0)
    let offer = try await backend.offer(of: .clipboard, stepTimeout: .seconds(5))
    let capture = await backend.capture(offer, budget: 64 << 20, stepTimeout: .seconds(5))
    #expect(capture.entries.first?.data == bytes)
    try await backend.own(
      .clipboard, item: PasteboardItem(representations: [.data(bytes, type: .data)]))
    let pasted = try await session.run(["wl-paste", "--type", "application/octet-stream"])
    #expect(pasted.stdout.count == bytes.count)
    #expect(pasted.stdout == bytes)
  }

  /// Issue 31: a target past the capture budget, read on request, goes from the owner's pipe
  /// to a file of the item's spool (spliced, never held in memory) and goes with the item.
  @Test func aLazyReadPastTheBudgetGoesToTheSpool() async throws {
    let bytes = Data((0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ $0 >> 9) })
    #expect(
      try await session.runServing(["wl-copy", "--type", "application/octet-stream"], input: bytes)
        .status == 0)
    let offer = try await backend.offer(of: .clipboard, stepTimeout: .seconds(5))
    let capture = await backend.capture(offer, budget: 1 << 20, stepTimeout: .seconds(5))
    #expect(capture.captured.isEmpty, "4 MiB is past a budget of 1 MiB")
    var item: PasteboardItem? = backend.item(capture, readingTheRestWithin: .seconds(5))
    guard case .file(let url) = try await item!.payload(for: .data) else {
      Issue.record("a read past the in-memory limit goes to the spool")
      return
    }
    #expect(try Data(contentsOf: url) == bytes)
    #expect(item?.itemAtHand()?.storedTypes == [.data], "what was read stays at hand")
    item = nil
    #expect(!FileManager.default.fileExists(atPath: url.path), "the file goes with its item")
  }

  @Test func aClearedSelectionHasNoOwner() async throws {
    #expect(try await session.run(["wl-copy", "--clear"]).status == 0)
    #expect(
      try await Deadline.wait(for: .seconds(10)) {
        (try? await backend.owner(of: .clipboard)) == nil
      })
    await #expect(throws: BackendError.noOwner(.clipboard)) {
      try await backend.offer(of: .clipboard, stepTimeout: .seconds(1))
    }
  }
}
