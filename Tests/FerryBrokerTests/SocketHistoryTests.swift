import ClipboardHistory
import FerryBroker
import FerryClient
import FerryProtocol
import FerryTestSupport
import Foundation
import Logging
import Testing

/// The history operations on an in-process server whose history the test fills directly.
@Suite struct SocketHistoryTests {
  /// Runs `body` with a server keeping a history in the fixture's directory.
  static func withHistory<T>(_ body: (SocketFixture, BrokerHistory) async throws -> T) async throws
    -> T
  {
    let directory = URL(fileURLWithPath: try makeTemporaryDirectory())
    defer { try? FileManager.default.removeItem(at: directory) }
    let history = try BrokerHistory(
      directory: directory, settings: HistorySettings(), logger: Logger(label: "test.history"))
    return try await SocketFixture.with({ $0.history = history }) { fixture in
      try await body(fixture, history)
    }
  }

  /// Records a text entry.
  @discardableResult
  static func record(
    _ text: String, in history: BrokerHistory, extra: [HistoryItem.Representation] = []
  ) throws -> Int64 {
    let item = HistoryItem(
      pasteboard: "general", changeCount: 1, source: "tests",
      representations: [.data(Data(text.utf8), type: "public.utf8-plain-text", isText: true)]
        + extra)
    switch try history.store.record(item) {
    case .recorded(let id, _), .deduplicated(let id): return id.rawValue
    case .refused(let reason):
      throw HistoryError.io(path: "", operation: "record", reason: "\(reason)")
    }
  }

  /// The error `call` throws, `nil` when it succeeds.
  static func failure(_ call: () throws -> Void) -> BrokerClientError? {
    do {
      try call()
      return nil
    } catch {
      return error as? BrokerClientError
    }
  }

  @Test func aListLongerThanAFrameArrivesWholeOverSeveralPages() async throws {
    try await Self.withHistory { fixture, history in
      let preview = String(repeating: "ä", count: 150)
      // 700 recordings (fsync each) on a thread of their own, not the test process's pool.
      _ = try await DetachedThread.run {
        for index in 0..<700 { _ = try Self.record("\(index) \(preview)", in: history) }
      }
      let (all, firstPage) = try await DetachedThread.run {
        let client = try fixture.client()
        let all = try client.historyList(limit: 1000)
        let raw = try fixture.rawConnection()
        try raw.hello()
        raw.send(try Frame.json(.request, HistoryListRequest(limit: 1000)))
        let page = try #require(try raw.receive()).decodeJSON(HistoryEntriesResponse.self)
        return (all, page)
      }
      #expect(all.count == 700)
      #expect(all.map(\.id) == all.map(\.id).sorted(by: >), "newest first")
      #expect(all.first?.preview?.hasPrefix("699 ") == true)
      #expect(firstPage.entries.count < 700)
      #expect(firstPage.next == firstPage.entries.count)
    }
  }

  @Test func aPageAndAnOffsetAreHonoured() async throws {
    try await Self.withHistory { fixture, history in
      for index in 0..<10 { try Self.record("entry \(index)", in: history) }
      let (page, pasteboardOnly) = try await DetachedThread.run {
        let client = try fixture.client()
        return (
          try client.historyList(limit: 3, offset: 2), try client.historyList(pasteboard: "primary")
        )
      }
      #expect(page.map(\.preview) == ["entry 7", "entry 6", "entry 5"])
      #expect(pasteboardOnly.isEmpty)
    }
  }

  @Test func aNegativeLimitIsABadRequestAndTheConnectionGoesOn() async throws {
    try await Self.withHistory { fixture, _ in
      let (refusal, after) = try await DetachedThread.run {
        let raw = try fixture.rawConnection()
        try raw.hello()
        raw.send(try Frame.json(.request, HistoryListRequest(limit: -1)))
        let refusal = try #require(try raw.receive())
        raw.send(try Frame.json(.request, HistoryListRequest()))
        return (refusal, try raw.receive())
      }
      #expect(refusal.kind == .error)
      #expect(try refusal.decodeJSON(ErrorBody.self).code == .badRequest)
      #expect(after?.kind == .response)
    }
  }

  @Test func showingALargeEntryStreamsItAndLeavesNoLinkBehind() async throws {
    try await Self.withHistory { fixture, history in
      let large = Data(TestBytes.make(300 << 10, seed: 13))
      let id = try Self.record("caption", in: history, extra: [.data(large, type: "public.png")])
      let shown = try await DetachedThread.run {
        try fixture.client().historyShow(id, types: ["public.png"])
      }
      #expect(shown.answer.type == "public.png")
      #expect(shown.data == large)
      let restored = history.store.directory.appendingPathComponent("restored").path
      let released = await Deadline.wait(for: .seconds(30)) {
        ((try? FileManager.default.contentsOfDirectory(atPath: restored)) ?? []).isEmpty
      }
      #expect(released, "the blob's link for the answer is removed once it is sent")
    }
  }

  @Test func anUnknownIDIsNotFoundAndADeleteWithOneIsRefusedWhole() async throws {
    try await Self.withHistory { fixture, history in
      let kept = try Self.record("kept", in: history)
      let failures = try await DetachedThread.run { () -> [BrokerClientError?] in
        let client = try fixture.client()
        return [
          Self.failure { _ = try client.historyShow(999, types: []) },
          Self.failure { try client.historyRestore(999) },
          Self.failure { try client.historySetPinned(true, 999) },
          Self.failure { try client.historyDelete([kept, 999]) },
        ]
      }
      #expect(failures.map(\.?.code) == [.notFound, .notFound, .notFound, .notFound])
      #expect(failures[0]?.message == "no history entry 999")
      #expect(
        try history.store.entry(HistoryEntry.ID(rawValue: kept)) != nil, "nothing was deleted")
    }
  }

  @Test func aServerWithoutHistoryRefusesEveryHistoryOperationAndSaysSoInStatus() async throws {
    try await SocketFixture.with { fixture in
      let (codes, status) = try await DetachedThread.run {
        () -> ([BrokerErrorCode?], StatusResponse) in
        let client = try fixture.client()
        let failures = [
          Self.failure { _ = try client.historyList() },
          Self.failure { _ = try client.historySearch("x") },
          Self.failure { _ = try client.historyShow(1) },
          Self.failure { try client.historyRestore(1) },
          Self.failure { try client.historyDelete([1]) },
          Self.failure { try client.historyClear() },
          Self.failure { try client.historySetPinned(true, 1) },
          Self.failure { try client.historySetPinned(false, 1) },
        ]
        return (failures.map(\.?.code), try client.status())
      }
      #expect(codes == Array(repeating: .historyOff, count: 8))
      #expect(
        status.history
          == HistoryStatusSummary(enabled: false, problem: "this broker was started without one"))
    }
  }

  @Test func statusCountsEntriesPinsAndBytes() async throws {
    try await Self.withHistory { fixture, history in
      let first = try Self.record("hello", in: history)
      try Self.record("world!", in: history)
      let status = try await DetachedThread.run {
        let client = try fixture.client()
        try client.historySetPinned(true, first)
        return try client.status()
      }
      #expect(
        status.history
          == HistoryStatusSummary(
            enabled: true, entries: 2, pinned: 1, bytes: 11, database: history.store.databasePath))
    }
  }
}
