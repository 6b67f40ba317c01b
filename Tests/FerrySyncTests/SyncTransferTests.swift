import FerryProtocol
import FerrySync
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Copies crossing a link between two engines: small ones pushed with their bytes, large ones
/// offered and pulled, a newer copy cancelling an older transfer, a link cut in the middle.
@Suite struct SyncTransferTests {
  @Test func aCopyArrivesWithEveryRepresentationInItsOrder() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    let html = Data("<b>Juan</b>".utf8)
    let text = Data("Juan".utf8)
    a.broker.copy([("public.html", html), ("public.utf8-plain-text", text)])
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.changeCount == 1 })
    let arrived = try #require(b.broker.current)
    #expect(arrived.representations.map(\.type) == ["public.html", "public.utf8-plain-text"])
    #expect(arrived.representations.map(\.bytes) == [html, text])
    #expect(arrived.origin == a.broker.current?.origin, "the copy keeps its origin")
    #expect(b.broker.history.last?.host == "a", "the history names the host it came from")
    let offers = LinkRelay.messages(link.relay.sentRightward).compactMap { message in
      if case .offer(let offer) = message { return offer }
      return nil
    }
    #expect(offers.map(\.eager) == [true], "a small copy goes with its bytes")
    link.cut()
  }

  @Test func aLargeCopyIsOfferedThenPulledInChunks() async throws {
    let settings = SyncSettings(eagerBytes: 64 << 10)
    let a = try SyncMachine("a", settings: settings)
    let b = try SyncMachine("b", settings: settings)
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    var generator = SplitMix64(seed: 39)
    let image = Data((0..<(3 << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    a.broker.copy([("public.png", image)])
    #expect(await Deadline.wait(for: .seconds(20)) { b.broker.changeCount == 1 })
    #expect(b.broker.current?.representations.first?.bytes == image)
    let rightward = LinkRelay.messages(link.relay.sentRightward)
    let leftward = LinkRelay.messages(link.relay.sentLeftward)
    #expect(rightward.contains { if case .offer(let offer) = $0 { !offer.eager } else { false } })
    #expect(leftward.contains { if case .pull = $0 { true } else { false } }, "pulled")
    #expect(rightward.contains { if case .stream = $0 { true } else { false } })
    let chunks = link.relay.sentRightward.filter { $0.kind == .data }.count
    #expect(chunks == 12, "3 MiB in chunks of 256 KiB")
    #expect(
      await Deadline.wait(for: .seconds(5)) { a.engine.links.first?.lastSent?.bytes == image.count }
    )
    link.cut()
  }

  @Test func aNewerCopyCancelsALargeTransferAndTheOldOneNeverLands() async throws {
    let settings = SyncSettings(eagerBytes: 64 << 10)
    let a = try SyncMachine("a", settings: settings)
    let b = try SyncMachine("b", settings: settings)
    // 64 KiB every 10 ms: 8 MiB would take more than a second.
    let link = try SyncLink(a, b, delay: .milliseconds(10))
    #expect(await link.waitUntil("connected"))
    let large = Data(repeating: 0x4C, count: 8 << 20)
    a.broker.copy([("public.data", large)])
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        LinkRelay.messages(link.relay.sentRightward).contains {
          if case .stream = $0 { true } else { false }
        }
      }, "the large copy's transfer started")
    a.broker.copy(text: "small")
    #expect(await Deadline.wait(for: .seconds(20)) { b.broker.text == "small" })
    #expect(
      LinkRelay.messages(link.relay.sentRightward).contains {
        if case .abort = $0 { true } else { false }
      }, "the older transfer was given up")
    // Whatever was still on its way has landed or not by the time the link is quiet.
    #expect(
      !(await Deadline.wait(for: .seconds(1)) { b.broker.changeCount != 1 }),
      "the large copy never lands after the small one")
    #expect(b.broker.history.allSatisfy { $0.item.totalBytes < large.count })
    #expect(link.relay.bytesSentRightward < large.count, "the rest of it was never sent")
    link.cut()
  }

  @Test func aLinkCutInTheMiddleOfAnItemCostsOnlyThatItem() async throws {
    let settings = SyncSettings(eagerBytes: 64 << 10)
    let a = try SyncMachine("a", settings: settings)
    let b = try SyncMachine("b", settings: settings)
    let link = try SyncLink(a, b, delay: .milliseconds(10))
    #expect(await link.waitUntil("connected"))
    let large = Data(repeating: 0x51, count: 4 << 20)
    a.broker.copy([("public.data", large)])
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        link.relay.sentRightward.contains { $0.kind == .data }
      })
    try await link.reconnect()
    #expect(
      link.ended.contains { if case .failure(.closed) = $0 { true } else { false } },
      "the receiving end says the link ended in the middle of an item: \(link.ended)")
    // Only this side changed since the last copy both had: it offers its copy again.
    #expect(await Deadline.wait(for: .seconds(20)) { b.broker.changeCount == 1 })
    #expect(b.broker.current?.representations.first?.bytes == large)
    a.broker.copy(text: "after the cut")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "after the cut" })
    link.cut()
  }

  @Test func pushOnceReportsThatTheOtherBrokerTookTheCopy() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    a.broker.copy(text: "once")
    #expect(await Deadline.wait(for: .seconds(10)) { a.broker.caughtUp })
    let relay = try LinkRelay()
    DetachedThread.start(name: "remote-end") {
      _ = try? b.engine.run(relay.right, record: SyncLinkRecord(host: "stdio"), initiator: false)
      close(relay.right.input.rawValue)
    }
    let outcome = try await DetachedThread.run {
      try a.engine.run(relay.left, record: SyncLinkRecord(host: "b"), initiator: true, once: true)
    }
    #expect(outcome == .applied)
    #expect(b.broker.text == "once")
    close(relay.left.input.rawValue)
  }
}
