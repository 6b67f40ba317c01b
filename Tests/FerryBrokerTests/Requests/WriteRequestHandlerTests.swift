import FerryProtocol
import Foundation
import Pasteboard
import Synchronization
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// `write` driven on the handler, no socket: what it keeps, what it reads of the stream, and
/// its refusals.
@Suite struct WriteRequestHandlerTests {
  static let text = RepresentationHeader(type: "public.utf8-plain-text")
  static let html = RepresentationHeader(type: "text/html")
  /// A frame a client might send after a write, to see the write read no further.
  static let nextRequest = try! Frame.json(.request, StatusRequest())

  @Test func aWriteKeepsEveryRepresentationInOrder() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream([
        .data("<b>Juan</b>"), .end, .data("Ju"), .data("an"), .end, Self.nextRequest,
      ])
      let outcome = try await fixture.handler.write(
        WriteRequest(pasteboard: "notes", representations: [Self.html, Self.text]),
        frames: &frames)
      guard case .written(let answer) = outcome else {
        Issue.record("refused: \(outcome)")
        return
      }
      #expect(answer.changeCount == 1)
      #expect(frames.sink.frames.isEmpty, "the connection sends the answer")
      #expect(try await frames.nextFrame() == Self.nextRequest, "read up to the last END")
      let item = try #require(fixture.pasteboard("notes").items.first)
      #expect(item.storedTypes == [.html, .utf8PlainText])
      #expect(
        RequestHandlerFixture.bytes(try await item.payload(for: .utf8PlainText))
          == Data("Juan".utf8))
      #expect(fixture.state.usedPasteboards == ["notes"])
    }
  }

  @Test func aWriteOfAnUnknownTypeIsRefusedAtOnceAndItsDataSkipped() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "old")
      var frames = EmbeddedFrameStream([
        .data("a"), .end, .data("b"), .data("c"), .end, Self.nextRequest,
      ])
      let outcome = try await fixture.handler.write(
        WriteRequest(
          representations: [Self.text, RepresentationHeader(type: "no such type")]),
        frames: &frames)
      guard case .refused(let failure) = outcome else {
        Issue.record("written: \(outcome)")
        return
      }
      #expect(failure.code == .unknownType)
      #expect(frames.sink.frames.map(\.error?.code) == [.unknownType], "the ERROR went at once")
      #expect(try await frames.nextFrame() == Self.nextRequest, "both ENDs were read")
      #expect(fixture.pasteboard().changeCount == 1, "the previous item stays")
    }
  }

  @Test(arguments: [
    WriteRequest(representations: []),
    WriteRequest(representations: [text, RepresentationHeader(type: "text/plain;charset=utf-8")]),
    WriteRequest(pasteboard: "", representations: [text]),
    WriteRequest(representations: [text], expires: .infinity),
  ])
  func aWriteTheBrokerCannotMakeIsABadRequestAndTheConnectionGoesOn(_ request: WriteRequest)
    async throws
  {
    try await RequestHandlerFixture.with { fixture in
      let ends = Array(repeating: Frame.end, count: request.representations.count)
      var frames = EmbeddedFrameStream(ends + [Self.nextRequest])
      let outcome = try await fixture.handler.write(request, frames: &frames)
      guard case .refused(let failure) = outcome else {
        Issue.record("written: \(outcome)")
        return
      }
      #expect(failure.code == .badRequest)
      #expect(!failure.closesConnection)
      #expect(frames.sink.frames.map(\.error?.code) == [.badRequest])
      #expect(try await frames.nextFrame() == Self.nextRequest)
    }
  }

  @Test func aConcealedItemPastItsLimitClosesTheConnectionAndKeepsThePreviousItem() async throws {
    try await RequestHandlerFixture.with({ $0.concealedLimit = 8 }) { fixture in
      fixture.put(text: "old")
      var frames = EmbeddedFrameStream([.data("12345"), .data("6789"), .end])
      let failure = await RequestHandlerFixture.failure {
        _ = try await fixture.handler.write(
          WriteRequest(representations: [Self.text], options: [.concealed]), frames: &frames)
      }
      #expect(failure?.code == .badRequest)
      #expect(failure?.closesConnection == true)
      #expect(failure?.message.contains("held in memory only") == true)
      #expect(fixture.pasteboard().changeCount == 1)
      #expect(fixture.pasteboard().items.first?.storedTypes == [.utf8PlainText])
    }
  }

  @Test func aConcealedItemIsNeverSpooled() async throws {
    try await RequestHandlerFixture.with({ $0.spoolThreshold = 2 }) { fixture in
      var frames = EmbeddedFrameStream([.data("secret"), .end])
      _ = try await fixture.handler.write(
        WriteRequest(representations: [Self.text], options: [.concealed]), frames: &frames)
      let item = try #require(fixture.pasteboard().items.first)
      #expect(item.options.contains(.concealed))
      #expect(
        RequestHandlerFixture.bytes(try await item.payload(for: .utf8PlainText))
          == Data("secret".utf8), "in memory")
    }
  }

  @Test func aRepresentationPastTheSpoolThresholdIsServedFromTheSpool() async throws {
    try await RequestHandlerFixture.with({ $0.spoolThreshold = 4 }) { fixture in
      var frames = EmbeddedFrameStream([.data("hello "), .data("world"), .end])
      _ = try await fixture.handler.write(
        WriteRequest(representations: [Self.text]), frames: &frames)
      let item = try #require(fixture.pasteboard().items.first)
      guard case .file(let url) = try await item.payload(for: .utf8PlainText) else {
        Issue.record("held in memory")
        return
      }
      #expect(url.path.hasPrefix(fixture.state.spool.path + "/"))
      #expect(FileManager.default.contents(atPath: url.path) == Data("hello world".utf8))
    }
  }

  @Test func aWriteTheClientAbandonsLeavesThePreviousItem() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "old")
      var frames = EmbeddedFrameStream([.data("new"), .end, .data("half")])
      await #expect(throws: ConnectionEnded.self) {
        _ = try await fixture.handler.write(
          WriteRequest(representations: [Self.text, Self.html]), frames: &frames)
      }
      #expect(fixture.pasteboard().changeCount == 1)
    }
  }

  @Test func aFrameOutOfOrderInAWriteClosesTheConnection() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream([.data("a"), Self.nextRequest])
      let failure = await RequestHandlerFixture.failure {
        _ = try await fixture.handler.write(
          WriteRequest(representations: [Self.text]), frames: &frames)
      }
      #expect(failure?.code == .badRequest)
      #expect(failure?.closesConnection == true)
      #expect(fixture.pasteboard().changeCount == 0)
    }
  }

  @Test func aWriteIsAnsweredOnlyOnceItIsPublished() async throws {
    let published = PublishedCounts()
    try await RequestHandlerFixture.with({ configuration in
      configuration.publication = { name, count in published.note(name, count) }
    }) { fixture in
      var frames = EmbeddedFrameStream([.data("x"), .end])
      _ = try await fixture.handler.write(
        WriteRequest(representations: [Self.text]), frames: &frames)
      #expect(published.all == ["general:1"])
    }
  }
}

/// The publications a write waited for.
final class PublishedCounts: Sendable {
  private let notes = Mutex<[String]>([])
  func note(_ name: Pasteboard.Name, _ count: Int) {
    notes.withLock { $0.append("\(name.rawValue):\(count)") }
  }
  var all: [String] { notes.withLock { $0 } }
}
