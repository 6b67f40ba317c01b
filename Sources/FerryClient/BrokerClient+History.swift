import FerryProtocol

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The clipboard history's operations (docs/PROTOCOL.md, "history").
///
/// ```swift
/// let client = try BrokerClient.connect(clientName: "my-picker")
/// for entry in try client.historyList(limit: 20) { print(entry.id, entry.preview ?? entry.types[0]) }
/// try client.historyRestore(12)
/// ```
///
/// Every call throws ``BrokerClientError`` with `historyOff` (and the reason) when the broker
/// keeps no history, and `notFound` for an id that has no entry.
extension BrokerClient {
  /// Entries, newest first, asking for as many pages as it takes.
  ///
  /// - Parameters:
  ///   - limit: The most entries returned.
  ///   - offset: How many of the newest to skip.
  ///   - pasteboard: Only this pasteboard's entries; every pasteboard's when `nil`.
  public func historyList(limit: Int = 50, offset: Int = 0, pasteboard: String? = nil)
    throws(BrokerClientError) -> [HistoryEntrySummary]
  {
    try historyPages(limit: limit, offset: offset) { limit, offset in
      HistoryListRequest(limit: limit, offset: offset, pasteboard: pasteboard)
    }
  }

  /// Entries whose text holds every word of `text` (as word prefixes), best first, newest
  /// first among equals.
  ///
  /// - Parameters:
  ///   - text: The words.
  ///   - limit: The most entries returned.
  ///   - pasteboard: Only this pasteboard's entries; every pasteboard's when `nil`.
  public func historySearch(_ text: String, limit: Int = 50, pasteboard: String? = nil)
    throws(BrokerClientError) -> [HistoryEntrySummary]
  {
    try historyPages(limit: limit, offset: 0) { limit, offset in
      HistorySearchRequest(text: text, limit: limit, offset: offset, pasteboard: pasteboard)
    }
  }

  /// Writes one representation of an entry to `descriptor` as it arrives: the first of
  /// `types` the entry stores or converts to, or its first representation when `types` is
  /// empty.
  ///
  /// - Returns: The type served.
  /// - Throws: ``BrokerClientError``: `notFound`, `notAvailable`, `unknownType`, `io` when
  ///   `descriptor` fails.
  @discardableResult
  public func historyShow(_ id: Int64, types: [String] = [], into descriptor: Int32)
    throws(BrokerClientError) -> String
  {
    try connection.send(
      .json(.request, HistoryShowRequest(id: id, types: types.isEmpty ? nil : types)))
    return try receiveRead { bytes throws(BrokerClientError) in
      try Self.writeAll(bytes, to: descriptor)
    }.type
  }

  /// One representation of an entry, in memory (see ``historyShow(_:types:into:)``).
  ///
  /// - Returns: The answer (the type served and the one of `types` it answers) and the bytes.
  public func historyShow(_ id: Int64, types: [String] = []) throws(BrokerClientError) -> (
    answer: ReadResponse, data: Data
  ) {
    try connection.send(
      .json(.request, HistoryShowRequest(id: id, types: types.isEmpty ? nil : types)))
    var data = Data()
    let answer = try receiveRead { bytes in data.append(contentsOf: bytes) }
    return (answer, data)
  }

  /// Makes an entry the current item of `pasteboard`, with all its representations.
  ///
  /// - Returns: The pasteboard's new change count, once the copy is out.
  @discardableResult
  public func historyRestore(_ id: Int64, to pasteboard: String = WireProtocol.defaultPasteboard)
    throws(BrokerClientError) -> Int
  {
    try connection.send(.json(.request, HistoryRestoreRequest(id: id, pasteboard: pasteboard)))
    return try connection.expectResponse(ChangeCountResponse.self).changeCount
  }

  /// Deletes entries, pinned or not; none when one of `ids` has no entry (`notFound`).
  ///
  /// - Returns: How many entries were deleted.
  @discardableResult
  public func historyDelete(_ ids: [Int64]) throws(BrokerClientError) -> Int {
    try connection.send(.json(.request, HistoryDeleteRequest(ids: ids)))
    return try connection.expectResponse(HistoryDeletedResponse.self).deleted
  }

  /// Deletes every unpinned entry; with `includingPinned`, every entry.
  ///
  /// - Returns: How many entries were deleted.
  @discardableResult
  public func historyClear(includingPinned: Bool = false) throws(BrokerClientError) -> Int {
    try connection.send(
      .json(.request, HistoryClearRequest(includingPinned: includingPinned ? true : nil)))
    return try connection.expectResponse(HistoryDeletedResponse.self).deleted
  }

  /// Pins an entry (never evicted, kept by a clear), or unpins it.
  ///
  /// - Returns: The entry as it now is.
  @discardableResult
  public func historySetPinned(_ pinned: Bool, _ id: Int64) throws(BrokerClientError)
    -> HistoryEntrySummary
  {
    try connection.send(.json(.request, HistoryPinRequest(id: id, pinned: pinned)))
    return try connection.expectResponse(HistoryEntrySummary.self)
  }

  /// Asks for pages made by `request(limit, offset)` until `limit` entries came or the
  /// broker says there are no more.
  private func historyPages<Request: BrokerRequest>(
    limit: Int, offset: Int, _ request: (_ limit: Int, _ offset: Int) -> Request
  ) throws(BrokerClientError) -> [HistoryEntrySummary] {
    var entries: [HistoryEntrySummary] = []
    var offset = offset
    repeat {
      try connection.send(.json(.request, request(limit - entries.count, offset)))
      let page = try connection.expectResponse(HistoryEntriesResponse.self)
      entries += page.entries
      guard let next = page.next, !page.entries.isEmpty else { break }
      offset = next
    } while entries.count < limit
    return entries
  }
}
