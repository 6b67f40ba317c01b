import ClipboardHistory
import FerryProtocol
import Foundation
import Logging
import Pasteboard
import Testing

@testable import FerryBroker

/// The `history…` operations driven on the handler, no socket, over a history the test fills
/// directly.
@Suite struct HistoryRequestHandlerTests {
  /// Runs `body` with a handler whose broker keeps a history in a temporary directory.
  static func withHistory<T>(_ body: (RequestHandlerFixture, BrokerHistory) async throws -> T)
    async throws -> T
  {
    let directory = URL(fileURLWithPath: try makeTemporaryDirectory())
    defer { try? FileManager.default.removeItem(at: directory) }
    let history = try BrokerHistory(
      directory: directory, settings: HistorySettings(), logger: Logger(label: "test.history"))
    return try await RequestHandlerFixture.with({ $0.history = history }) { fixture in
      try await body(fixture, history)
    }
  }

  /// Each history operation, on `handler`, its answer dropped.
  static let operations: [(String, @Sendable (BrokerRequestHandler) async throws -> Void)] = [
    ("historyList", { _ = try await $0.historyList(HistoryListRequest()) }),
    ("historySearch", { _ = try await $0.historySearch(HistorySearchRequest(text: "a")) }),
    (
      "historyShow",
      { try await $0.historyShow(HistoryShowRequest(id: 1), answeringTo: RecordingFrameSink()) }
    ),
    ("historyRestore", { _ = try await $0.historyRestore(HistoryRestoreRequest(id: 1)) }),
    ("historyDelete", { _ = try await $0.historyDelete(HistoryDeleteRequest(ids: [1])) }),
    ("historyClear", { _ = try await $0.historyClear(HistoryClearRequest()) }),
    ("historyPin", { _ = try await $0.historyPin(HistoryPinRequest(id: 1)) }),
  ]

  @Test func everyOperationIsRefusedWhenTheBrokerKeepsNoHistory() async throws {
    try await RequestHandlerFixture.with { fixture in
      for (name, operation) in Self.operations {
        let failure = await RequestHandlerFixture.failure { try await operation(fixture.handler) }
        #expect(failure?.code == .historyOff, "\(name)")
        #expect(
          failure?.message == "the clipboard history is off: this broker was started without one")
        #expect(failure?.closesConnection == false)
      }
    }
  }

  @Test func anIDWithNoEntryIsNotFound() async throws {
    try await Self.withHistory { fixture, _ in
      for (name, operation) in Self.operations
      where name != "historyList" && name != "historySearch" && name != "historyClear" {
        let failure = await RequestHandlerFixture.failure { try await operation(fixture.handler) }
        #expect(failure?.code == .notFound, "\(name)")
      }
    }
  }

  @Test func aDeleteNamesEveryMissingIDAndDeletesNothing() async throws {
    try await Self.withHistory { fixture, history in
      let id = try SocketHistoryTests.record("kept", in: history)
      let failure = await RequestHandlerFixture.failure {
        _ = try await fixture.handler.historyDelete(HistoryDeleteRequest(ids: [id, 98, 99]))
      }
      #expect(failure?.code == .notFound)
      #expect(failure?.message == "no history entries 98, 99; nothing was deleted")
      #expect(try await fixture.handler.historyList(HistoryListRequest()).entries.map(\.id) == [id])
    }
  }

  @Test func badPagesAndAnEmptyDeleteAreBadRequests() async throws {
    try await Self.withHistory { fixture, _ in
      let handler = fixture.handler
      let failures = [
        await RequestHandlerFixture.failure {
          _ = try await handler.historyList(HistoryListRequest(limit: -1))
        },
        await RequestHandlerFixture.failure {
          _ = try await handler.historySearch(
            HistorySearchRequest(text: "a", offset: Int(Int32.max) + 1))
        },
        await RequestHandlerFixture.failure {
          _ = try await handler.historyDelete(HistoryDeleteRequest(ids: []))
        },
        await RequestHandlerFixture.failure {
          _ = try await handler.historyList(HistoryListRequest(pasteboard: ""))
        },
      ]
      for failure in failures {
        #expect(failure?.code == .badRequest)
        #expect(failure?.closesConnection == false)
      }
    }
  }

  @Test func listSearchShowPinRestoreAndClearAnEntry() async throws {
    try await Self.withHistory { fixture, history in
      let first = try SocketHistoryTests.record("Release notes", in: history)
      let second = try SocketHistoryTests.record("hello again", in: history)
      let handler = fixture.handler

      let list = try await handler.historyList(HistoryListRequest())
      #expect(list.entries.map(\.id) == [second, first], "newest first")
      #expect(list.next == nil)
      let found = try await handler.historySearch(HistorySearchRequest(text: "rel"))
      #expect(found.entries.map(\.id) == [first])

      let sink = RecordingFrameSink()
      try await handler.historyShow(
        HistoryShowRequest(id: first, types: ["public.utf16-plain-text"]), answeringTo: sink)
      #expect(sink.frames.map(\.kind) == [.response, .data, .end])
      #expect(try sink.frames[0].decodeJSON(ReadResponse.self).type == "public.utf16-plain-text")
      #expect(Data(sink.frames[1].body) == "Release notes".data(using: .utf16LittleEndian))

      let pinned = try await handler.historyPin(HistoryPinRequest(id: first))
      #expect(pinned.pinned)
      let restored = try await handler.historyRestore(
        HistoryRestoreRequest(id: first, pasteboard: "notes"))
      #expect(restored.changeCount == fixture.pasteboard("notes").changeCount)
      let item = try #require(fixture.pasteboard("notes").items.first)
      #expect(
        RequestHandlerFixture.bytes(try await item.payload(for: .utf8PlainText))
          == Data("Release notes".utf8))

      #expect(try await handler.historyClear(HistoryClearRequest()).deleted == 1, "the pin stays")
      #expect(
        try await handler.historyClear(HistoryClearRequest(includingPinned: true)).deleted == 1)
      #expect(try await handler.historyList(HistoryListRequest()).entries.isEmpty)
    }
  }
}
