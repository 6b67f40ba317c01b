import ClipboardHistory
import FerryProtocol
import Pasteboard

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BrokerRequestHandler {
  /// `historyList`: a page of entries, newest first.
  ///
  /// - Throws: ``ProtocolFailure``: `historyOff`, `badRequest` for a bad page or pasteboard
  ///   name, `internal` when the history fails.
  func historyList(_ request: HistoryListRequest) async throws -> HistoryEntriesResponse {
    let history = try await requireHistory()
    let page = try HistoryPage(limit: request.limit, offset: request.offset)
    let pasteboard = try request.pasteboard.map { try Self.pasteboardName($0).rawValue }
    let entries = try await Self.onStore(history) {
      try $0.list(limit: page.fetched, offset: page.offset, pasteboard: pasteboard)
    }
    return page.answer(entries)
  }

  /// `historySearch`: a page of the entries whose text holds every word, best first.
  ///
  /// - Throws: ``ProtocolFailure`` as ``historyList(_:)``.
  func historySearch(_ request: HistorySearchRequest) async throws -> HistoryEntriesResponse {
    let history = try await requireHistory()
    let page = try HistoryPage(limit: request.limit, offset: request.offset)
    let pasteboard = try request.pasteboard.map { try Self.pasteboardName($0).rawValue }
    let text = request.text
    let entries = try await Self.onStore(history) { store in
      Array(
        try store.search(text, limit: page.offset + page.fetched, pasteboard: pasteboard).dropFirst(
          page.offset))
    }
    return page.answer(entries)
  }

  /// `historyShow`: one representation of an entry, stored or converted, sent as `read`
  /// sends it — the entry's item is put on a pasteboard of its own and read from there.
  ///
  /// - Throws: ``ProtocolFailure``: `historyOff`, `notFound`, and `read`'s refusals.
  func historyShow(_ request: HistoryShowRequest, answeringTo sink: some FrameSink) async throws {
    let history = try await requireHistory()
    let id = HistoryEntry.ID(rawValue: request.id)
    let converters = configuration.converters
    guard
      let (_, item) = try await Self.mappingErrors({
        try await history.load(id, converters: converters)
      })
    else {
      throw ProtocolFailure(HistoryError.noSuchEntry(id))
    }
    let board = Pasteboard(name: "history", converters: converters)
    board.write([item])
    defer {
      // The blobs' links outlive nothing but this answer; an open file keeps reading.
      let pool = configuration.threadPool
      Task { try? await pool.runIfActive { history.releaseLinks(of: item) } }
    }
    try await serveRead(
      of: request.types ?? [], from: board, inPlace: false, answeringTo: sink)
  }

  /// `historyRestore`: the entry becomes the pasteboard's item; answered once the copy is
  /// out, as a write is.
  ///
  /// - Returns: The pasteboard's new change count.
  /// - Throws: ``ProtocolFailure``: `historyOff`, `notFound`, `badRequest` for a bad name.
  func historyRestore(_ request: HistoryRestoreRequest) async throws -> ChangeCountResponse {
    let history = try await requireHistory()
    let board = state.pasteboard(try Self.pasteboardName(request.pasteboard))
    let id = HistoryEntry.ID(rawValue: request.id)
    guard let count = try await Self.mappingErrors({ try await history.restore(id, onto: board) })
    else {
      throw ProtocolFailure(HistoryError.noSuchEntry(id))
    }
    logger.debug(
      "restored a history entry",
      metadata: [
        "entry": "\(id)", "pasteboard": "\(board.name.rawValue)", "changeCount": "\(count)",
      ])
    await configuration.publication(board.name, count)
    return ChangeCountResponse(changeCount: count)
  }

  /// `historyDelete`: every entry named, or none when one of them does not exist.
  ///
  /// - Throws: ``ProtocolFailure``: `badRequest` for no ids, `historyOff`, `notFound` naming
  ///   the ids with no entry.
  func historyDelete(_ request: HistoryDeleteRequest) async throws -> HistoryDeletedResponse {
    guard !request.ids.isEmpty else {
      throw ProtocolFailure.refusal(.badRequest, "historyDelete needs at least one id")
    }
    let history = try await requireHistory()
    let ids = request.ids.map(HistoryEntry.ID.init(rawValue:))
    let deleted = try await Self.onStore(history) { store in
      let missing = try ids.filter { try store.entry($0) == nil }
      guard missing.isEmpty else {
        if missing.count == 1 { throw HistoryError.noSuchEntry(missing[0]) }
        throw ProtocolFailure.refusal(
          .notFound,
          "no history entries \(missing.map(\.description).joined(separator: ", ")); nothing was deleted"
        )
      }
      return try store.delete(ids)
    }
    logger.debug("deleted history entries", metadata: ["count": "\(deleted)"])
    return HistoryDeletedResponse(deleted: deleted)
  }

  /// `historyClear`: every unpinned entry, or every entry.
  ///
  /// - Throws: ``ProtocolFailure``: `historyOff`, `internal`.
  func historyClear(_ request: HistoryClearRequest) async throws -> HistoryDeletedResponse {
    let history = try await requireHistory()
    let includingPinned = request.includingPinned ?? false
    let deleted = try await Self.onStore(history) { try $0.clear(includingPinned: includingPinned) }
    logger.debug(
      "cleared the history",
      metadata: ["count": "\(deleted)", "includingPinned": "\(includingPinned)"])
    return HistoryDeletedResponse(deleted: deleted)
  }

  /// `historyPin` and `historyUnpin`: answered with the entry as it now is.
  ///
  /// - Throws: ``ProtocolFailure``: `historyOff`, `notFound`.
  func historyPin(_ request: HistoryPinRequest) async throws -> HistoryEntrySummary {
    let history = try await requireHistory()
    let id = HistoryEntry.ID(rawValue: request.id)
    let pinned = request.op == .historyPin
    let entry = try await Self.onStore(history) { store in
      try store.setPinned(pinned, id)
      return try store.entry(id)
    }
    guard let entry else { throw ProtocolFailure(HistoryError.noSuchEntry(id)) }
    return HistoryEntrySummary(entry)
  }

  /// The history's part of `status`: its figures, or why it is off.
  func historyStatus(problem: String?) async -> HistoryStatusSummary {
    guard let history = configuration.history else {
      return HistoryStatusSummary(enabled: false, problem: problem ?? Self.noHistoryReason)
    }
    do {
      let status = try await history.perform { try $0.status() }
      return HistoryStatusSummary(status, database: history.store.databasePath)
    } catch {
      return HistoryStatusSummary(
        enabled: true, database: history.store.databasePath, problem: "\(error)")
    }
  }

  // MARK: - Shared

  /// Why there is no history when the status provider does not say: a socket server run
  /// without one (tests, embedding programs).
  static let noHistoryReason = "this broker was started without one"

  /// The history, or the refusal that says why the broker keeps none.
  private func requireHistory() async throws -> BrokerHistory {
    if let history = configuration.history { return history }
    let reason = await configuration.status.status().historyProblem ?? Self.noHistoryReason
    throw ProtocolFailure.refusal(.historyOff, "the clipboard history is off: \(reason)")
  }

  /// Runs `body` on the history's queue, its errors made refusals.
  private static func onStore<T: Sendable>(
    _ history: BrokerHistory, _ body: @escaping @Sendable (HistoryStore) throws -> T
  ) async throws -> T {
    try await mappingErrors { try await history.perform(body) }
  }

  /// Runs `body`, its ``HistoryError``s made refusals.
  private static func mappingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as HistoryError {
      throw ProtocolFailure(error)
    }
  }
}
