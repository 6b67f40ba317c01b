import Pasteboard

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    var arguments: [any SQLiteValue] = pasteboard.map { [$0] } ?? []
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
    var arguments: [any SQLiteValue] = [pattern, Self.searchCandidates]
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
        try db.fetchOne(
          "SELECT type, size, sha256, inFile, inlineData FROM representation WHERE entryId = ? AND position = ?",
          [id.rawValue, index]
        ) {
          (
            type: $0.string(0), size: $0.int64(1), sha256: $0.string(2), inFile: $0.bool(3),
            data: $0.data(4)
          )
        }
      }
    }
    guard let row else {
      throw try entry(id) == nil
        ? HistoryError.noSuchEntry(id) : HistoryError.noSuchRepresentation(id, index: index)
    }
    guard row.inFile else { return .data(row.data ?? Data()) }
    let sha256 = row.sha256
    guard blobs.holds(sha256, size: row.size) else {
      throw HistoryError.blobUnavailable(entry: id, type: row.type, path: blobs.path(of: sha256))
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
        let totals = try db.fetchOne("SELECT entries, bytes FROM totals") {
          ($0.int(0), $0.int64(1))
        }
        let pinned =
          try db.fetchOne("SELECT count(*) FROM entry WHERE pinned = 1") { $0.int(0) } ?? 0
        let pages = try db.fetchOne("PRAGMA page_count") { $0.int64(0) } ?? 0
        let pageSize = try db.fetchOne("PRAGMA page_size") { $0.int64(0) } ?? 0
        return HistoryStatus(
          entries: totals?.0 ?? 0, pinnedEntries: pinned, totalBytes: totals?.1 ?? 0,
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
  private func entries(sql: String, arguments: [any SQLiteValue]) throws -> [HistoryEntry] {
    try mapErrors {
      try database.read { db in
        var entries = try db.fetchAll(sql, arguments) { row in
          HistoryEntry(
            id: HistoryEntry.ID(rawValue: row.int64(0)), pasteboard: row.string(1),
            date: Date(timeIntervalSince1970: row.double(2)),
            changeCount: row.int(3), source: row.optionalString(4), isPinned: row.bool(5),
            totalSize: row.int64(6), preview: row.optionalString(7), representations: [])
        }
        if entries.isEmpty { return [] }
        var representations = [Int64: [HistoryRepresentation]]()
        let statement = try db.cachedStatement(
          """
          SELECT entryId, type, size, isText, sha256, inFile FROM representation
          WHERE entryId IN (SELECT value FROM json_each(?)) ORDER BY entryId, position
          """)
        _ = try statement.fetchAll([Self.jsonArray(entries.map(\.id.rawValue))]) { row in
          representations[row.int64(0), default: []].append(
            HistoryRepresentation(
              type: row.string(1), size: row.int64(2), isText: row.bool(3), sha256: row.string(4),
              storage: row.bool(5) ? .file : .inline))
        }
        for index in entries.indices {
          entries[index].representations = representations[entries[index].id.rawValue] ?? []
        }
        return entries
      }
    }
  }
}
