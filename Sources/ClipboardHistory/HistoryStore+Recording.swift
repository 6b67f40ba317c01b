extension HistoryStore {
  /// Records a copy: a new entry at the top of the history, or the existing entry with the
  /// same content moved to the top.
  ///
  /// In order: the sizes are checked against ``HistoryLimits/maximumItemBytes``; each
  /// representation is hashed, and one over ``inlineLimit`` is written to its blob file
  /// (flushed, renamed into place, the directory flushed) unless that blob exists; then one
  /// transaction inserts the entry, its representations in order and its search text, and
  /// evicts the oldest unpinned entries past the limits. Blobs only the evicted entries
  /// named are removed after the commit. A crash at any point leaves the history as it was
  /// before or after the copy, never in between.
  ///
  /// - Parameter item: The copy.
  /// - Returns: What was done; a copy over the per-item limit is refused, and nothing changes.
  /// - Throws: ``HistoryError``: ``HistoryError/diskFull(path:)`` when the disk fills (the copy
  ///   is dropped, the store stays usable), ``HistoryError/unreadableSource(path:reason:)``,
  ///   ``HistoryError/readOnlyStore(path:)`` on a reader.
  @discardableResult
  public func record(_ item: HistoryItem) throws -> RecordResult {
    try requireWriter()
    if item.representations.isEmpty { return .refused(.empty) }
    return try changes.withLock { _ in
      let staged: StagedItem
      switch try blobs.stage(item.representations, limit: limits.maximumItemBytes) {
      case .overLimit(let size):
        return .refused(.tooLarge(size: size, limit: limits.maximumItemBytes))
      case .staged(let item):
        staged = item
      }
      do {
        let (result, orphans) = try mapErrors {
          try database.write { try insert(item, staged, $0) }
        }
        blobs.remove(orphans)
        return result
      } catch {
        // Nothing committed: the blobs this call made are named by no row.
        blobs.remove(staged.createdBlobs)
        throw error
      }
    }
  }

  /// Inserts a staged copy and evicts past the limits, in the caller's transaction.
  ///
  /// - Returns: The result, and the blobs no row names any more.
  private func insert(
    _ item: HistoryItem, _ staged: StagedItem, _ db: SQLiteConnection
  ) throws -> (RecordResult, orphans: [String]) {
    let digest = ContentHash.ofEntry(staged.representations)
    let sequence = try (db.fetchOne("SELECT max(sequence) FROM entry") { $0.int64(0) } ?? 0) + 1
    let existing = try db.fetchOne(
      "SELECT id FROM entry WHERE pasteboard = ? AND digest = ?", [item.pasteboard, digest]
    ) { $0.int64(0) }
    if let existing {
      try db.execute(
        """
        UPDATE entry SET sequence = ?, recordedAt = ?, changeCount = ?, source = coalesce(?, source)
        WHERE id = ?
        """,
        [sequence, item.date.timeIntervalSince1970, item.changeCount, item.source, existing])
      return (.deduplicated(HistoryEntry.ID(rawValue: existing)), [])
    }
    try db.execute(
      """
      INSERT INTO entry (sequence, pasteboard, recordedAt, changeCount, source, totalSize, preview, digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        sequence, item.pasteboard, item.date.timeIntervalSince1970, item.changeCount, item.source,
        staged.totalSize, staged.preview, digest,
      ])
    let id = db.lastInsertedRowID
    let insertRepresentation = try db.cachedStatement(
      """
      INSERT INTO representation (entryId, position, type, size, isText, sha256, inFile, inlineData)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """)
    for (position, representation) in staged.representations.enumerated() {
      try insertRepresentation.execute([
        id, position, representation.type, representation.size, representation.isText,
        representation.sha256, representation.inlineData == nil, representation.inlineData,
      ])
    }
    if let text = staged.searchText {
      try db.execute("INSERT INTO entryText (rowid, text) VALUES (?, ?)", [id, text])
    }
    let (evicted, orphans) = try evict(db, sparing: id)
    return (.recorded(HistoryEntry.ID(rawValue: id), evicted: evicted), orphans)
  }

  /// Deletes the oldest unpinned entries, other than `sparing`, until the history is within
  /// its limits or only pinned entries are left.
  private func evict(_ db: SQLiteConnection, sparing id: Int64) throws -> (
    [HistoryEntry.ID], orphans: [String]
  ) {
    var evicted: [Int64] = []
    var named = Set<String>()
    while true {
      guard
        let totals = try db.fetchOne(
          "SELECT entries, bytes FROM totals", [], { ($0.int(0), $0.int64(1)) })
      else { break }
      var (entries, bytes) = totals
      if entries <= limits.maximumEntries && bytes <= limits.maximumTotalBytes { break }
      let oldest = try db.fetchAll(
        "SELECT id, totalSize FROM entry WHERE pinned = 0 AND id != ? ORDER BY sequence LIMIT 64",
        [id]
      ) { (id: $0.int64(0), size: $0.int64(1)) }
      var batch: [Int64] = []
      for row in oldest where entries > limits.maximumEntries || bytes > limits.maximumTotalBytes {
        batch.append(row.id)
        entries -= 1
        bytes -= row.size
      }
      if batch.isEmpty { break }
      evicted += batch
      named.formUnion(try removeEntries(batch, db))
    }
    let orphans = try named.isEmpty ? [] : unreferenced(named, db)
    return (evicted.map(HistoryEntry.ID.init(rawValue:)), orphans)
  }
}
