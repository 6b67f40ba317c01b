import FerryProtocol
import FerrySync
import FerryTestSupport
import Foundation
import Testing

/// What a link does when it comes back (docs/SYNC.md, "The conflict rule"): the side that
/// changed while apart offers its copy; when both changed, neither is overwritten and both
/// say `diverged` until the next copy.
@Suite struct SyncReconnectTests {
  private let node = "n1"
  private func origin(_ change: Int, _ clock: Int, node: String = "n1") -> ItemOrigin {
    ItemOrigin(node: node, change: change, clock: clock)
  }

  @Test func theRuleComparesEachSideWithTheCopyBothLastHad() {
    let agreed = origin(3, 7)
    let ours = origin(4, 8)
    let theirs = origin(9, 8, node: "n2")
    #expect(ReconnectRule(ours: agreed, theirs: agreed, lastSynced: agreed) == .inSync)
    #expect(ReconnectRule(ours: nil, theirs: nil, lastSynced: nil) == .inSync)
    #expect(ReconnectRule(ours: ours, theirs: agreed, lastSynced: agreed) == .offerOurs)
    #expect(ReconnectRule(ours: agreed, theirs: theirs, lastSynced: agreed) == .takeTheirs)
    #expect(ReconnectRule(ours: ours, theirs: theirs, lastSynced: agreed) == .diverged)
    #expect(ReconnectRule(ours: ours, theirs: nil, lastSynced: nil) == .offerOurs)
    #expect(ReconnectRule(ours: nil, theirs: theirs, lastSynced: nil) == .takeTheirs)
    // The same item reached both another way (a third machine): nothing to do.
    #expect(ReconnectRule(ours: theirs, theirs: theirs, lastSynced: agreed) == .inSync)
    // `via` is where a copy came from, not what it is.
    var relayed = theirs
    relayed.via = "n3"
    #expect(ReconnectRule(ours: relayed, theirs: theirs, lastSynced: agreed) == .inSync)
  }

  @Test func aCopyMadeWhileApartCrossesWhenTheLinkComesBack() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    a.broker.copy(text: "before")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "before" })
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        link.fromRecord.lastSynced == a.broker.current?.origin
      })
    link.cut()
    #expect(await Deadline.wait(for: .seconds(10)) { link.ended.count == 2 })
    b.broker.copy(text: "while apart")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.caughtUp }, "B's engine saw it")
    try await link.reconnect()
    #expect(
      await Deadline.wait(for: .seconds(10)) { a.broker.text == "while apart" },
      "a: \(link.fromRecord.status) b: \(link.toRecord.status) ended: \(link.ended) frames: \(LinkRelay.messages(link.relay.sentLeftward)) \(LinkRelay.messages(link.relay.sentRightward))"
    )
    #expect(await link.waitUntil("connected"))
    #expect(b.broker.changeCount == 2, "B's copy was not overwritten by A's older one")
    link.cut()
  }

  @Test func whenBothSidesCopiedWhileApartNeitherIsOverwritten() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    a.broker.copy(text: "agreed")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "agreed" })
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        link.fromRecord.lastSynced == a.broker.current?.origin
      })
    link.cut()
    #expect(await Deadline.wait(for: .seconds(10)) { link.ended.count == 2 })
    a.broker.copy(text: "a, apart")
    b.broker.copy(text: "b, apart")
    #expect(await Deadline.wait(for: .seconds(10)) { a.broker.caughtUp && b.broker.caughtUp })
    try await link.reconnect()
    #expect(await link.waitUntil("diverged"), "\(link.fromRecord.status) \(link.toRecord.status)")
    #expect(
      !(await Deadline.wait(for: .seconds(1)) {
        a.broker.changeCount != 2 || b.broker.changeCount != 2
      }),
      "neither side's copy is overwritten")
    #expect(a.broker.text == "a, apart")
    #expect(b.broker.text == "b, apart")
    // The next copy joins them.
    a.broker.copy(text: "joined")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "joined" })
    #expect(await link.waitUntil("connected"))
    link.cut()
  }
}
