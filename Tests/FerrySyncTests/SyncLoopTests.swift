import FerryProtocol
import FerrySync
import FerryTestSupport
import Foundation
import Testing

/// No loops, one answer (docs/SYNC.md): an item never goes back over the link it came on,
/// an origin a link carried is not offered on it again, a digest backs both up, and copies
/// that cross converge on the same item on both sides with no wall clock.
@Suite struct SyncLoopTests {
  /// The offers among `frames`.
  private func offers(_ frames: [Frame]) -> [SyncMessage.Offer] {
    LinkRelay.messages(frames).compactMap { message in
      if case .offer(let offer) = message { return offer }
      return nil
    }
  }

  @Test func aCopyIsOneChangeOnEachSideAndNeverComesBack() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    a.broker.copy(text: "once each")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "once each" })
    #expect(
      !(await Deadline.wait(for: .seconds(1)) {
        !offers(link.relay.sentLeftward).isEmpty || a.broker.changeCount != 1
          || b.broker.changeCount != 1
      }), "nothing more crosses: \(offers(link.relay.sentLeftward))")
    #expect(a.broker.history.count == 1, "nothing came back into A's history")
    link.cut()
  }

  @Test func theSameBytesCopiedAgainAfterACrossingAreNotSentAgain() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    a.broker.copy(text: "retaken")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "retaken" })
    // A program on B takes the clipboard back with the same bytes: a new origin, same digest.
    b.broker.copy(text: "retaken")
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        link.toRecord.status.skipped["duplicate"] == 1
      }, "\(link.toRecord.status)")
    #expect(offers(link.relay.sentLeftward).isEmpty)
    #expect(a.broker.changeCount == 1)
    link.cut()
  }

  @Test(arguments: [0, 5, 40]) func crossingCopiesConvergeOnTheSameItem(delayMilliseconds: Int)
    async throws
  {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let link = try SyncLink(a, b, delay: .milliseconds(delayMilliseconds))
    #expect(await link.waitUntil("connected"))
    let x = a.broker.copy(text: "from a")
    let y = b.broker.copy(text: "from b")
    let winner = max(x, y)
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        a.broker.current?.origin == winner && b.broker.current?.origin == winner
      },
      "a: \(a.broker.diagnosis) \(link.fromRecord.status), b: \(b.broker.diagnosis) \(link.toRecord.status)"
    )
    #expect(a.broker.text == b.broker.text)
    // The copy that lost is kept in its own machine's history, not dropped. (It reaches the
    // other's history only when it was sent before the winner arrived: a copy replaced
    // before it was read is not sent.)
    for (machine, own) in [(a, "from a"), (b, "from b")] {
      let texts = Set(
        machine.broker.history.map {
          String(decoding: $0.item.representations[0].bytes, as: UTF8.self)
        })
      #expect(
        texts.contains(own) && texts.contains(winner == x ? "from a" : "from b"),
        "\(machine.name): \(texts)")
    }
    link.cut()
  }

  @Test func aRingOfThreeStaysQuietAfterOneCopy() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let c = try SyncMachine("c")
    let links = [try SyncLink(a, b), try SyncLink(b, c), try SyncLink(c, a)]
    for link in links { #expect(await link.waitUntil("connected")) }
    a.broker.copy(text: "around")
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        b.broker.text == "around" && c.broker.text == "around"
      })
    let quiet = await Deadline.wait(for: .seconds(2)) {
      [a, b, c].map(\.broker.changeCount) != [1, 1, 1]
    }
    #expect(!quiet, "one change on each: \([a, b, c].map(\.broker.changeCount))")
    // Each link carried the origin at most once each way, and never back to where it began.
    for link in links {
      let carried = offers(link.relay.sentRightward) + offers(link.relay.sentLeftward)
      #expect(carried.count <= 2, "\(link.from.name)–\(link.to.name): \(carried.count) offers")
    }
    #expect(offers(links[0].relay.sentLeftward).isEmpty, "B never sends A's copy back to A")
    #expect(offers(links[2].relay.sentRightward).isEmpty, "C never sends A's copy back to A")
    for link in links { link.cut() }
  }

  @Test func aCopyTakenFromOneLinkGoesOnToTheOthers() async throws {
    // A chain: a — b — c. A's copy reaches c through b, and c's through b to a.
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let c = try SyncMachine("c")
    let links = [try SyncLink(a, b), try SyncLink(b, c)]
    for link in links { #expect(await link.waitUntil("connected")) }
    a.broker.copy(text: "down the chain")
    #expect(await Deadline.wait(for: .seconds(10)) { c.broker.text == "down the chain" })
    c.broker.copy(text: "back up")
    #expect(await Deadline.wait(for: .seconds(10)) { a.broker.text == "back up" })
    #expect([a, b, c].map(\.broker.changeCount) == [2, 2, 2])
    for link in links { link.cut() }
  }
}
