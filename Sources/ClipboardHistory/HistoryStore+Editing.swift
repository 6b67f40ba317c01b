import GRDB

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
          try db.execute(sql: "UPDATE entry SET pinned = ? WHERE id = ?", arguments: [pinned, id.rawValue])
          return db.changesCount
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
      let present = try Int64.fetchAll(
        db, sql: "SELECT id FROM entry WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
        arguments: StatementArguments(ids.map(\.rawValue)))
      return present
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
      try Int64.fetchAll(db, sql: includingPinned ? "SELECT id FROM entry" : "SELECT id FROM entry WHERE pinned = 0")
    }
  }

  /// Deletes the entries `select` picks, in one transaction, then their blobs no row names.
  private func remove(_ select: @escaping (Database) throws -> [Int64]) throws -> Int {
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
  func removeEntries(_ ids: [Int64], _ db: Database) throws -> Set<String> {
    var blobs = Set<String>()
    for start in stride(from: 0, to: ids.count, by: 500) {
      let chunk = StatementArguments(Array(ids[start..<min(start + 500, ids.count)]))
      let marks = databaseQuestionMarks(count: min(500, ids.count - start))
      blobs.formUnion(
        try String.fetchAll(
          db, sql: "SELECT sha256 FROM representation WHERE inFile = 1 AND entryId IN (\(marks))",
          arguments: chunk))
      try db.execute(sql: "DELETE FROM entry WHERE id IN (\(marks))", arguments: chunk)
    }
    return blobs
  }

  /// The blobs among `hashes` that no row names: to delete once the transaction commits.
  func unreferenced(_ hashes: Set<String>, _ db: Database) throws -> [String] {
    let named = try db.cachedStatement(
      sql: "SELECT EXISTS (SELECT 1 FROM representation WHERE inFile = 1 AND sha256 = ?)")
    return try hashes.filter { try !(Bool.fetchOne(named, arguments: [$0]) ?? false) }
  }
}
