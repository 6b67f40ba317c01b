extension HistoryStore {
  /// Pins or unpins an entry. A pinned entry is never evicted and survives
  /// ``clear(includingPinned:)``.
  ///
  /// - Throws: ``HistoryError/noSuchEntry(_:)``; ``HistoryError/readOnlyStore(path:)`` on a reader.
  public func setPinned(_ pinned: Bool, _ id: HistoryEntry.ID) throws {
    try requireWriter()
    try changes.withLock { _ in
      let changed = try mapErrors {
        try database.write { db in
          try db.execute("UPDATE entry SET pinned = ? WHERE id = ?", [pinned, id.rawValue])
          return db.changes
        }
      }
      if changed == 0 { throw HistoryError.noSuchEntry(id) }
    }
  }

  /// Deletes entries, pinned or not, and the blobs only they named. Ids with no entry are
  /// ignored.
  ///
  /// - Returns: How many entries were deleted.
  /// - Throws: ``HistoryError/readOnlyStore(path:)`` on a reader.
  @discardableResult
  public func delete(_ ids: [HistoryEntry.ID]) throws -> Int {
    if ids.isEmpty { return 0 }
    return try remove { db in
      try db.fetchAll(
        "SELECT id FROM entry WHERE id IN (SELECT value FROM json_each(?))",
        [Self.jsonArray(ids.map(\.rawValue))]
      ) { $0.int64(0) }
    }
  }

  /// Deletes every unpinned entry, as CopyQ's `clear` does; with `includingPinned`, every
  /// entry.
  ///
  /// - Returns: How many entries were deleted.
  /// - Throws: ``HistoryError/readOnlyStore(path:)`` on a reader.
  @discardableResult
  public func clear(includingPinned: Bool = false) throws -> Int {
    try remove { db in
      try db.fetchAll(
        includingPinned ? "SELECT id FROM entry" : "SELECT id FROM entry WHERE pinned = 0"
      ) { $0.int64(0) }
    }
  }

  /// Deletes the entries `select` picks, in one transaction, then their blobs no row names.
  private func remove(_ select: (SQLiteConnection) throws -> [Int64]) throws -> Int {
    try requireWriter()
    return try changes.withLock { _ in
      let (count, orphans) = try mapErrors {
        try database.write { db -> (Int, [String]) in
          let ids = try select(db)
          if ids.isEmpty { return (0, []) }
          let named = try removeEntries(ids, db)
          return (ids.count, try unreferenced(named, db))
        }
      }
      blobs.remove(orphans)
      return count
    }
  }

  /// Deletes entries; their representations and search text go with them, by the schema's
  /// cascade and trigger.
  ///
  /// - Returns: The blobs the deleted entries named.
  func removeEntries(_ ids: [Int64], _ db: SQLiteConnection) throws -> Set<String> {
    let list = Self.jsonArray(ids)
    let named = Set(
      try db.fetchAll(
        "SELECT sha256 FROM representation WHERE inFile = 1 AND entryId IN (SELECT value FROM json_each(?))",
        [list]
      ) { $0.string(0) })
    try db.execute("DELETE FROM entry WHERE id IN (SELECT value FROM json_each(?))", [list])
    return named
  }

  /// Ids as one JSON array, bound as a single argument and expanded by `json_each`, so a
  /// statement over any number of ids is prepared once.
  static func jsonArray(_ ids: [Int64]) -> String {
    "[" + ids.map(String.init).joined(separator: ",") + "]"
  }

  /// The blobs among `hashes` that no row names: to delete once the transaction commits.
  func unreferenced(_ hashes: Set<String>, _ db: SQLiteConnection) throws -> [String] {
    let named = try db.cachedStatement(
      "SELECT EXISTS (SELECT 1 FROM representation WHERE inFile = 1 AND sha256 = ?)")
    return try hashes.filter { try !(named.fetchOne([$0]) { $0.bool(0) } ?? false) }
  }
}
