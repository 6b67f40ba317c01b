import Foundation
import GRDB
import Pasteboard

extension HistoryStore {
  /// Entries, newest first.
  ///
  /// - Parameters:
  ///   - limit: The most entries returned.
  ///   - offset: How many of the newest to skip (for paging).
  ///   - pasteboard: Only this pasteboard's entries, or every pasteboard's for `nil`.
  public func list(limit: Int = 50, offset: Int = 0, pasteboard: String? = nil) throws
    -> [HistoryEntry]
  {
    let filter = pasteboard == nil ? "" : "WHERE pasteboard = ?"
    var arguments: StatementArguments = pasteboard.map { [$0] } ?? []
    arguments += [limit, offset]
    return try entries(
      sql:
        "SELECT \(Self.entryColumns) FROM entry \(filter) ORDER BY sequence DESC LIMIT ? OFFSET ?",
      arguments: arguments)
  }

  /// The newest entry of a pasteboard: what goes back on it when the broker starts.
  public func newest(pasteboard: String) throws -> HistoryEntry? {
    try list(limit: 1, pasteboard: pasteboard).first
  }

  /// The entry with this id, or `nil`.
  public func entry(_ id: HistoryEntry.ID) throws -> HistoryEntry? {
    try entries(
      sql: "SELECT \(Self.entryColumns) FROM entry WHERE id = ?", arguments: [id.rawValue]
    ).first
  }

  /// Entries whose text representations hold every word of `text`, each word matched as a
  /// word prefix, case- and diacritic-insensitively ("hel wor" finds "Hello, World").
  /// Ranked by relevance (FTS5's bm25), newest first among equals.
  ///
  /// Ranking a word found in most of a large history would cost a rank for every match, so
  /// only the ``searchCandidates`` most recently recorded matches are ranked: a search stays
  /// within milliseconds at 100,000 entries whatever the word.
  ///
  /// - Parameters:
  ///   - text: Words to find; FTS5 syntax in it is taken literally.
  ///   - limit: The most entries returned.
  ///   - pasteboard: Only this pasteboard's entries, or every pasteboard's for `nil`.
  /// - Returns: The matches; none for text with no word in it.
  public func search(_ text: String, limit: Int = 50, pasteboard: String? = nil) throws
    -> [HistoryEntry]
  {
    guard let pattern = SearchPattern.prefixes(of: text) else { return [] }
    let filter = pasteboard == nil ? "" : "WHERE entry.pasteboard = ?"
    var arguments: StatementArguments = [pattern, Self.searchCandidates]
    if let pasteboard { arguments += [pasteboard] }
    arguments += [limit]
    return try entries(
      sql: """
        SELECT \(Self.entryColumns) FROM (
          SELECT rowid, rank FROM entryText WHERE entryText MATCH ? ORDER BY rowid DESC LIMIT ?
        ) AS hit JOIN entry ON entry.id = hit.rowid
        \(filter)
        ORDER BY hit.rank, entry.sequence DESC LIMIT ?
        """,
      arguments: arguments)
  }

  /// How many matches a search ranks at most: the most recently recorded ones.
  public static let searchCandidates = 2_000

  /// The bytes of an entry's representation.
  ///
  /// - Parameters:
  ///   - id: The entry.
  ///   - index: The representation's position, from 0, in the order recorded.
  /// - Returns: The bytes for an inline representation; for a large one, the store's blob
  ///   file — read it, never write it, and open it before calling the store again (a later
  ///   eviction or deletion may remove it; an open descriptor keeps reading).
  /// - Throws: ``HistoryError/blobUnavailable(entry:type:path:)`` when the blob file is
  ///   missing or not of the recorded size; ``HistoryError/noSuchEntry(_:)``,
  ///   ``HistoryError/noSuchRepresentation(_:index:)``.
  public func contents(of id: HistoryEntry.ID, at index: Int) throws -> PasteboardPayload {
    let row = try mapErrors {
      try database.read { db in
        try Row.fetchOne(
          db.cachedStatement(
            sql:
              "SELECT type, size, sha256, inFile, inlineData FROM representation WHERE entryId = ? AND position = ?"
          ),
          arguments: [id.rawValue, index])
      }
    }
    guard let row else {
      throw try entry(id) == nil
        ? HistoryError.noSuchEntry(id) : HistoryError.noSuchRepresentation(id, index: index)
    }
    guard row["inFile"] as Bool else { return .data(row["inlineData"] as Data? ?? Data()) }
    let sha256: String = row["sha256"]
    guard blobs.holds(sha256, size: row["size"]) else {
      throw HistoryError.blobUnavailable(entry: id, type: row["type"], path: blobs.path(of: sha256))
    }
    return .file(URL(fileURLWithPath: blobs.path(of: sha256)))
  }

  /// The bytes of an entry's first representation of exactly `type`, or `nil` when it has
  /// none. The store does no conversion: that is the caller's.
  public func contents(of id: HistoryEntry.ID, type: String) throws -> PasteboardPayload? {
    guard let entry = try entry(id) else { throw HistoryError.noSuchEntry(id) }
    return try entry.types.firstIndex(of: type).map { try contents(of: id, at: $0) }
  }

  /// How much the history holds.
  public func status() throws -> HistoryStatus {
    try mapErrors {
      try database.read { db in
        let totals = try Row.fetchOne(db, sql: "SELECT entries, bytes FROM totals")
        let pinned = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE pinned = 1") ?? 0
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        return HistoryStatus(
          entries: totals?["entries"] ?? 0, pinnedEntries: pinned,
          totalBytes: totals?["bytes"] ?? 0,
          databaseBytes: pages * pageSize, limits: limits, access: access)
      }
    }
  }

  /// The columns a ``HistoryEntry`` is read from.
  static let entryColumns =
    "entry.id, entry.pasteboard, entry.recordedAt, entry.changeCount, entry.source, entry.pinned, entry.totalSize, entry.preview"

  /// Runs an entry query (selecting ``entryColumns``), then reads the entries'
  /// representations in one more query. Columns are read by position: the hot path of
  /// `list` and `search`.
  private func entries(sql: String, arguments: StatementArguments) throws -> [HistoryEntry] {
    try mapErrors {
      try database.read { db in
        let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        if rows.isEmpty { return [] }
        let ids = rows.map { $0[0] as Int64 }
        var representations = [Int64: [HistoryRepresentation]]()
        let representationRows = try Row.fetchCursor(
          db.cachedStatement(
            sql: """
              SELECT entryId, type, size, isText, sha256, inFile FROM representation
              WHERE entryId IN (SELECT value FROM json_each(?)) ORDER BY entryId, position
              """),
          arguments: [Self.jsonArray(ids)])
        while let row = try representationRows.next() {
          representations[row[0], default: []].append(
            HistoryRepresentation(
              type: row[1], size: row[2], isText: row[3], sha256: row[4],
              storage: row[5] ? .file : .inline))
        }
        return rows.map { row in
          let id: Int64 = row[0]
          return HistoryEntry(
            id: HistoryEntry.ID(rawValue: id), pasteboard: row[1],
            date: Date(timeIntervalSince1970: row[2]),
            changeCount: row[3], source: row[4], isPinned: row[5], totalSize: row[6],
            preview: row[7],
            representations: representations[id] ?? [])
        }
      }
    }
  }
}
