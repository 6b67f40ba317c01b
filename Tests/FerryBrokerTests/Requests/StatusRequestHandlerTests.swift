import FerryProtocol
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// `status`, `types` and `clear` driven on the handler, no socket: plain functions from a
/// request to its answer.
@Suite struct StatusRequestHandlerTests {
  @Test func statusNamesTheDaemonsPasteboardsThenTheOnesUsed() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream([.data("s"), .end])
      _ = try await fixture.handler.write(
        WriteRequest(
          pasteboard: "notes",
          representations: [RepresentationHeader(type: "public.utf8-plain-text")]),
        frames: &frames)
      let status = await fixture.handler.status()
      #expect(status.pid == getpid())
      #expect(status.protocolVersion == WireProtocol.version)
      #expect(status.display == nil)
      #expect(status.socket == fixture.root + "/run/unbound.sock")
      #expect(status.pasteboards.map(\.pasteboard) == ["general", "primary", "notes"])
      #expect(status.pasteboards.last?.storedTypes == ["public.utf8-plain-text"])
      #expect(status.history?.enabled == false)
      #expect(status.history?.problem == BrokerRequestHandler.noHistoryReason)
    }
  }

  @Test func typesListsStoredThenConvertedTypesAndTheConcealedFlag() async throws {
    try await RequestHandlerFixture.with { fixture in
      let board = fixture.pasteboard()
      board.write([
        PasteboardItem(
          representations: [.data(Data("pw".utf8), type: .utf8PlainText)], options: .concealed,
          converters: board.converters)
      ])
      let state = try await fixture.handler.types(TypesRequest())
      #expect(state.pasteboard == "general")
      #expect(state.changeCount == 1)
      #expect(state.storedTypes == ["public.utf8-plain-text"])
      #expect(state.types.first == "public.utf8-plain-text")
      #expect(state.types.count > 1, "conversions follow: \(state.types)")
      #expect(state.concealed)
    }
  }

  @Test(arguments: ["", String(repeating: "x", count: 256), "tab\there"])
  func aBadPasteboardNameIsRefusedAndTheConnectionGoesOn(_ name: String) async throws {
    try await RequestHandlerFixture.with { fixture in
      let types = await RequestHandlerFixture.failure {
        _ = try await fixture.handler.types(TypesRequest(pasteboard: name))
      }
      let clear = await RequestHandlerFixture.failure {
        _ = try fixture.handler.clear(ClearRequest(pasteboard: name))
      }
      for failure in [types, clear] {
        #expect(failure?.code == .badRequest)
        #expect(failure?.closesConnection == false)
      }
    }
  }

  @Test func clearEmptiesThePasteboardAndCountsAChange() async throws {
    try await RequestHandlerFixture.with { fixture in
      fixture.put(text: "x", on: "notes")
      let answer = try fixture.handler.clear(ClearRequest(pasteboard: "notes"))
      #expect(answer.changeCount == 2)
      #expect(fixture.pasteboard("notes").items.isEmpty)
      let failure = await RequestHandlerFixture.failure {
        try await fixture.handler.read(
          ReadRequest(pasteboard: "notes", types: []), answeringTo: RecordingFrameSink())
      }
      #expect(failure?.code == .empty)
    }
  }
}
