import FerryClient
import FerryCommandLine
import FerryProtocol
import Foundation
import Testing

/// The JSON of the history's messages, as docs/PROTOCOL.md shows it.
@Suite struct HistoryMessageTests {
  static func json(_ value: some Encodable) throws -> String {
    String(decoding: try Frame.json(.response, value).body, as: UTF8.self)
  }

  static func entry(
    id: Int64, preview: String? = "Hello", types: [String] = ["public.utf8-plain-text"]
  ) -> HistoryEntrySummary {
    HistoryEntrySummary(
      id: id, pasteboard: "general", date: 1_767_225_600.25, changeCount: 7, source: "pbcopy",
      pinned: false, size: 5,
      preview: preview, types: types)
  }

  @Test func requestsAreTheDocumentedJSON() throws {
    #expect(
      try Self.json(HistoryListRequest(limit: 50, offset: 0, pasteboard: "general"))
        == #"{"limit":50,"offset":0,"op":"historyList","pasteboard":"general"}"#)
    #expect(
      try Self.json(HistorySearchRequest(text: "hel wor", limit: 50))
        == #"{"limit":50,"op":"historySearch","text":"hel wor"}"#)
    #expect(
      try Self.json(HistoryShowRequest(id: 12, types: ["public.utf8-plain-text"]))
        == #"{"id":12,"op":"historyShow","types":["public.utf8-plain-text"]}"#)
    #expect(
      try Self.json(HistoryRestoreRequest(id: 12, pasteboard: "general"))
        == #"{"id":12,"op":"historyRestore","pasteboard":"general"}"#)
    #expect(
      try Self.json(HistoryDeleteRequest(ids: [12, 14])) == #"{"ids":[12,14],"op":"historyDelete"}"#
    )
    #expect(
      try Self.json(HistoryClearRequest(includingPinned: false))
        == #"{"includingPinned":false,"op":"historyClear"}"#)
    #expect(try Self.json(HistoryPinRequest(id: 12)) == #"{"id":12,"op":"historyPin"}"#)
    #expect(
      try Self.json(HistoryPinRequest(id: 12, pinned: false)) == #"{"id":12,"op":"historyUnpin"}"#)
  }

  @Test func requestsDecodeWithTheirDefaultsLeftOut() throws {
    let list = try Frame(kind: .request, body: Array(#"{"op":"historyList"}"#.utf8)).decodeJSON(
      HistoryListRequest.self)
    #expect(list == HistoryListRequest())
    let clear = try Frame(kind: .request, body: Array(#"{"op":"historyClear"}"#.utf8)).decodeJSON(
      HistoryClearRequest.self)
    #expect(clear.includingPinned == nil)
    let unpin = try Frame(kind: .request, body: Array(#"{"op":"historyUnpin","id":3}"#.utf8))
      .decodeJSON(HistoryPinRequest.self)
    #expect(unpin == HistoryPinRequest(id: 3, pinned: false))
    #expect(throws: DecodingError.self) {
      try Frame(kind: .request, body: Array(#"{"op":"historyShow","id":"12"}"#.utf8)).decodeJSON(
        HistoryShowRequest.self)
    }
  }

  @Test func anEntryAlwaysCarriesSourceAndPreviewNullWhenUnknown() throws {
    #expect(
      try Self.json(Self.entry(id: 12))
        == #"{"changeCount":7,"date":1767225600.25,"id":12,"pasteboard":"general","pinned":false,"preview":"Hello","size":5,"source":"pbcopy","types":["public.utf8-plain-text"]}"#
    )
    var image = Self.entry(id: 13, preview: nil, types: ["public.png"])
    image.source = nil
    let text = try Self.json(image)
    #expect(text.contains(#""preview":null"#) && text.contains(#""source":null"#))
    #expect(try Frame.json(.response, image).decodeJSON(HistoryEntrySummary.self) == image)
  }

  @Test func aPageThatFitsIsWholeAndSaysNothingMore() throws {
    let entries = (1...3).map { Self.entry(id: $0) }
    #expect(
      HistoryEntriesResponse.fitting(entries, offset: 0, moreMayFollow: false)
        == HistoryEntriesResponse(entries: entries))
    #expect(HistoryEntriesResponse.fitting(entries, offset: 10, moreMayFollow: true).next == 13)
  }

  @Test func aPageTooLargeForOneFrameIsCutWithTheOffsetToGoOnFrom() throws {
    let preview = String(repeating: "ä", count: 200)
    let entries = (1...1000).map { Self.entry(id: Int64($0), preview: preview) }
    let page = HistoryEntriesResponse.fitting(entries, offset: 40, moreMayFollow: false)
    #expect(page.entries.count > 50 && page.entries.count < 1000)
    #expect(page.entries == Array(entries.prefix(page.entries.count)))
    #expect(page.next == 40 + page.entries.count)
    let frame = try Frame.json(.response, page)
    #expect(frame.body.count <= FrameLimits.maxJSONBody)
    #expect(
      frame.body.count > FrameLimits.maxJSONBody - 2_000,
      "the page is filled: \(frame.body.count) bytes")
  }

  @Test func anEntryTooLargeAloneListsItsFirstTypesOnly() throws {
    let types = (0..<2000).map {
      "org.example.a-very-long-target-name-offered-by-a-hostile-owner-\($0)"
    }
    let page = HistoryEntriesResponse.fitting(
      [Self.entry(id: 1, types: types)], offset: 0, moreMayFollow: false)
    #expect(page.entries.count == 1)
    #expect(page.entries[0].types == Array(types.prefix(page.entries[0].types.count)))
    #expect(!page.entries[0].types.isEmpty)
    #expect(try Frame.json(.response, page).body.count <= FrameLimits.maxJSONBody)
  }

  @Test func statusCarriesTheHistoryOrWhyItIsOff() throws {
    let on = HistoryStatusSummary(
      enabled: true, entries: 31, pinned: 2, bytes: 48_213, database: "/h/history.sqlite")
    #expect(
      try Self.json(on)
        == #"{"bytes":48213,"database":"/h/history.sqlite","enabled":true,"entries":31,"pinned":2}"#
    )
    let off = HistoryStatusSummary(enabled: false, problem: "history.enabled is false")
    let status = StatusResponse(
      version: "1", pid: 7, uptime: 1, display: nil, x11Bridged: false, clipboardManager: false,
      socket: "/s",
      pasteboards: [], history: off)
    #expect(
      try Self.json(status).contains(
        #""history":{"enabled":false,"problem":"history.enabled is false"}"#))
    #expect(try Frame.json(.response, status).decodeJSON(StatusResponse.self) == status)
    let older = Frame(
      kind: .response,
      body: Array(
        #"{"version":"1","protocolVersion":1,"pid":7,"uptime":1,"display":null,"x11Bridged":false,"clipboardManager":false,"socket":"/s","pasteboards":[]}"#
          .utf8))
    #expect(try older.decodeJSON(StatusResponse.self).history == nil, "a broker that does not say")
  }

  @Test(arguments: [(BrokerErrorCode.notFound, Int32(1)), (.historyOff, 1)])
  func historyRefusalsExitWithNothingAvailable(code: BrokerErrorCode, status: Int32) {
    #expect(ExitStatus(BrokerClientError(code: code, message: "")).rawValue == status)
  }
}
