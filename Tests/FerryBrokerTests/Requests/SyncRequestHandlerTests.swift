import FerryProtocol
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// The broker's side of `ferry sync` on the handler, no socket: origins, the Lamport clock, a
/// write that lands only when its origin is greater, and the links' report.
@Suite struct SyncRequestHandlerTests {
  static let text = RepresentationHeader(type: "public.utf8-plain-text")

  /// Writes `text` with `origin` and returns the answer.
  private func write(_ text: String, origin: ItemOrigin?, _ fixture: RequestHandlerFixture)
    async throws -> ChangeCountResponse?
  {
    var frames = EmbeddedFrameStream([.data(text), .end])
    let outcome = try await fixture.handler.write(
      WriteRequest(representations: [Self.text], origin: origin), frames: &frames)
    guard case .written(let answer) = outcome else {
      Issue.record("refused: \(outcome)")
      return nil
    }
    return answer
  }

  @Test func aLocalCopyIsStampedWithThisNodeAboveEveryClockSeen() async throws {
    try await RequestHandlerFixture.with { fixture in
      let node = fixture.handler.syncReport(SyncReportRequest(process: 1, links: [])).node
      let seen = fixture.handler.syncReport(SyncReportRequest(process: 1, links: [], clock: 50))
      #expect(seen.node == node, "one node for the broker's run")
      #expect(seen.clock == 50)
      fixture.put(text: "local")
      let state = try await fixture.handler.types(TypesRequest())
      let origin = try #require(state.origin)
      #expect(origin.node == node)
      #expect(origin.change == state.changeCount)
      #expect(origin.clock == 51, "one more than the clock seen on a link")
      #expect(try await fixture.handler.types(TypesRequest()).origin == origin, "stamped once")
    }
  }

  @Test func aSynchronizedWriteLandsOnlyWhenItsOriginIsGreater() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "local")
      let local = try #require(try await fixture.handler.types(TypesRequest()).origin)
      let newer = ItemOrigin(node: "zz-other", change: 4, clock: local.clock + 1, via: "relay")
      let taken = try await write("newer", origin: newer, fixture)
      #expect(taken?.applied == true)
      let state = try await fixture.handler.types(TypesRequest())
      #expect(state.origin == newer)
      #expect(state.origin?.via == "relay", "the state says which link it came over")
      let older = ItemOrigin(node: "aa-other", change: 9, clock: local.clock)
      let refused = try await write("older", origin: older, fixture)
      #expect(refused?.applied == false)
      #expect(refused?.changeCount == state.changeCount, "the pasteboard did not change")
      let item = try #require(fixture.pasteboard().items.first)
      #expect(
        RequestHandlerFixture.bytes(try await item.payload(for: .utf8PlainText))
          == Data("newer".utf8))
      // The same clock: the node breaks the tie, the same way on every machine.
      let tie = ItemOrigin(node: "zz-zz", change: 1, clock: newer.clock)
      #expect(try await write("tie", origin: tie, fixture)?.applied == true)
      // A plain write has no `applied`: it always lands.
      #expect(try await write("plain", origin: nil, fixture)?.applied == nil)
    }
  }

  @Test func theLinksReportedAreInTheStatusUntilTheirProcessEnds() async throws {
    try await RequestHandlerFixture.with { fixture in
      let link = SyncLinkStatus(host: "desk", state: "connected", since: 1)
      _ = fixture.handler.syncReport(SyncReportRequest(process: getpid(), links: [link]))
      #expect(await fixture.handler.status().sync?.map(\.host) == ["desk"])
      // A process that is gone (pid 2^22 + 1 is past Linux's pid_max default) is dropped.
      _ = fixture.handler.syncReport(SyncReportRequest(process: 4_194_305, links: [link]))
      #expect(await fixture.handler.status().sync?.count == 1)
    }
  }
}
