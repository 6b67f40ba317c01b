import FerryProtocol
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// `watch` driven on the handler, no socket: its answer, an EVENT per change, and its end
/// when the client's stream ends.
@Suite struct WatchRequestHandlerTests {
  @Test func aWatchAnswersThenReportsEachChangeUntilTheClientCloses() async throws {
    try await RequestHandlerFixture.with { fixture in
      let (inbound, client) = AsyncStream.makeStream(of: Frame.self)
      let sink = RecordingFrameSink()
      let handler = fixture.handler
      let watching = Task {
        var frames = EmbeddedFrameStream(inbound: inbound, sink: sink)
        try await handler.watch(WatchRequest(pasteboards: ["notes", "notes"]), frames: &frames)
      }
      #expect(await sink.waitForFrames(1))
      #expect(try sink.frames[0].decodeJSON(WatchResponse.self).pasteboards == ["notes"])
      fixture.put(text: "first", on: "notes")
      #expect(await sink.waitForFrames(2))
      let event = sink.frames[1]
      #expect(event.kind == .event)
      let state = try event.decodeJSON(PasteboardState.self)
      #expect(state.pasteboard == "notes")
      #expect(state.changeCount == 1)
      #expect(state.storedTypes == ["public.utf8-plain-text"])
      client.finish()
      try await watching.value
    }
  }

  @Test func aFrameDuringAWatchClosesTheConnection() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream([.data("?")])
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.watch(WatchRequest(), frames: &frames)
      }
      #expect(failure?.code == .badRequest)
      #expect(failure?.closesConnection == true)
      #expect(frames.sink.frames.map(\.kind) == [.response])
      let answer = try frames.sink.frames[0].decodeJSON(WatchResponse.self)
      #expect(answer.pasteboards == ["general", "primary"])
    }
  }

  @Test func aBadPasteboardNameIsRefusedBeforeTheAnswer() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream([])
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.watch(
          WatchRequest(pasteboards: ["general", ""]), frames: &frames)
      }
      #expect(failure?.code == .badRequest)
      #expect(failure?.closesConnection == false)
      #expect(frames.sink.frames.isEmpty)
    }
  }
}
