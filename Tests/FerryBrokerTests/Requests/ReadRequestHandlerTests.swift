import FerryProtocol
import Foundation
import Pasteboard
import Synchronization
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// `read` driven on the handler, no socket: what it sends to the sink, and its refusals.
@Suite struct ReadRequestHandlerTests {
  @Test func aReadServesTheFirstTypeAvailableAsOneWrite() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "Juan Chavez")
      let sink = RecordingFrameSink()
      try await fixture.handler.read(
        ReadRequest(types: ["public.png", "text/plain;charset=utf-8"]), answeringTo: sink)
      let frames = sink.frames
      #expect(frames.map(\.kind) == [.response, .data, .end])
      #expect(sink.writes == 1, "a short answer goes in one write")
      let answer = try frames[0].decodeJSON(ReadResponse.self)
      #expect(
        answer == ReadResponse(type: "public.utf8-plain-text", requested: "public.utf8-plain-text"))
      #expect(frames[1].text == "Juan Chavez")
    }
  }

  @Test func aReadWithoutTypesServesTheFirstStoredType() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put([
        .data(Data("<b>hi</b>".utf8), type: .html), .data(Data("hi".utf8), type: .utf8PlainText),
      ])
      let sink = RecordingFrameSink()
      try await fixture.handler.read(ReadRequest(types: []), answeringTo: sink)
      #expect(try sink.frames[0].decodeJSON(ReadResponse.self).type == "public.html")
      #expect(sink.frames[1].text == "<b>hi</b>")
    }
  }

  @Test func anEmptyItemIsAnEndAlone() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "")
      let sink = RecordingFrameSink()
      try await fixture.handler.read(ReadRequest(types: []), answeringTo: sink)
      #expect(sink.frames.map(\.kind) == [.response, .end])
    }
  }

  @Test func aReadOfAnEmptyPasteboardIsRefused() async throws {
    try await RequestHandlerFixture.with { fixture in
      let sink = RecordingFrameSink()
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.read(ReadRequest(types: []), answeringTo: sink)
      }
      #expect(failure?.code == .empty)
      #expect(failure?.message == "the general pasteboard is empty")
      #expect(failure?.closesConnection == false)
      #expect(sink.frames.isEmpty, "the connection sends the ERROR")
    }
  }

  @Test(arguments: ["not a type", "text/", "image/png/extra", ""])
  func aTypeThatIsNoIdentifierNorMIMETypeIsUnknown(_ name: String) async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "x")
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.read(
          ReadRequest(types: [name]), answeringTo: RecordingFrameSink())
      }
      #expect(failure?.code == .unknownType)
      #expect(failure?.closesConnection == false)
    }
  }

  @Test func aReadNothingServesNamesWhatWasAskedAndWhatIsOffered() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "x")
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.read(
          ReadRequest(types: ["public.png", "public.jpeg"]), answeringTo: RecordingFrameSink())
      }
      #expect(failure?.code == .notAvailable)
      #expect(failure?.message.hasPrefix("none of public.png, public.jpeg is available") == true)
      #expect(
        failure?.message.contains("public.utf8-plain-text") == true, "\(failure?.message ?? "")")
    }
  }

  @Test func aBadPasteboardNameIsABadRequest() async throws {
    try await RequestHandlerFixture.with { fixture in
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.read(
          ReadRequest(pasteboard: "a\u{7}b", types: []), answeringTo: RecordingFrameSink())
      }
      #expect(failure?.code == .badRequest)
      #expect(failure?.closesConnection == false)
    }
  }

  @Test func aLazyRepresentationIsProducedWhenRead() async throws {
    try await RequestHandlerFixture.with { fixture in
      let runs = Counter()
      fixture.put([
        .lazy(.utf8PlainText) {
          runs.increment()
          return .data(Data("made on request".utf8))
        }
      ])
      #expect(runs.value == 0)
      let sink = RecordingFrameSink()
      try await fixture.handler.read(ReadRequest(types: ["public.plain-text"]), answeringTo: sink)
      let answer = try sink.frames[0].decodeJSON(ReadResponse.self)
      #expect(answer.requested == "public.plain-text")
      #expect(answer.type == "public.utf8-plain-text")
      #expect(sink.frames[1].text == "made on request")
      #expect(runs.value == 1)
    }
  }

  @Test func aLazyRepresentationThatFailsIsRefusedAsProviderFailed() async throws {
    struct Broken: Error {}
    try await RequestHandlerFixture.with { fixture in
      fixture.put([.lazy(.utf8PlainText) { throw Broken() }])
      let sink = RecordingFrameSink()
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.read(ReadRequest(types: []), answeringTo: sink)
      }
      #expect(failure?.code == .providerFailed)
      #expect(failure?.closesConnection == false, "the connection goes on")
      #expect(sink.frames.isEmpty, "nothing was sent before the refusal")
    }
  }

  @Test func aLargePayloadIsStreamedInDataFramesOfOneMebibyte() async throws {
    try await RequestHandlerFixture.with { fixture in
      let bytes = Data((0..<(5 << 19)).map { UInt8(truncatingIfNeeded: $0) })  // 2.5 MiB
      fixture.put([.data(bytes, type: .data)])
      let sink = RecordingFrameSink()
      try await fixture.handler.read(ReadRequest(types: ["public.data"]), answeringTo: sink)
      let frames = sink.frames
      #expect(frames.map(\.kind) == [.response, .data, .data, .data, .end])
      #expect(frames.dropFirst().dropLast().map(\.body.count) == [1 << 20, 1 << 20, 1 << 19])
      #expect(Data(frames.dropFirst().dropLast().flatMap(\.body)) == bytes)
    }
  }

  @Test func aSpooledRepresentationIsHandedOverInPlaceOnlyWhenAsked() async throws {
    try await RequestHandlerFixture.with({ $0.spoolThreshold = 4 }) { fixture in
      var frames = EmbeddedFrameStream([.data("spooled bytes"), .end])
      _ = try await fixture.handler.write(
        WriteRequest(representations: [RepresentationHeader(type: "public.utf8-plain-text")]),
        frames: &frames)
      let inPlace = RecordingFrameSink()
      try await fixture.handler.read(
        ReadRequest(types: [], inPlace: true), answeringTo: inPlace)
      #expect(inPlace.frames.map(\.kind) == [.response, .end])
      let file = try #require(try inPlace.frames[0].decodeJSON(ReadResponse.self).file)
      #expect(file.path.hasPrefix(fixture.state.spool.path + "/"))
      #expect(file.size == 13)
      #expect(FileManager.default.contents(atPath: file.path) == Data("spooled bytes".utf8))
      let streamed = RecordingFrameSink()
      try await fixture.handler.read(ReadRequest(types: []), answeringTo: streamed)
      #expect(streamed.frames.map(\.kind) == [.response, .data, .end])
      #expect(streamed.frames[1].text == "spooled bytes")
      #expect(try streamed.frames[0].decodeJSON(ReadResponse.self).file == nil)
    }
  }
}

/// A count a provider can bump from any task.
final class Counter: Sendable {
  private let count = Atomic<Int>(0)
  func increment() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}
