#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension HistoryStore {
  /// Checks an existing database file through a read-only connection, before anything could
  /// write to it: it must be an SQLite database, carry Ferry's application id (or be empty),
  /// and have no migration this store does not know.
  ///
  /// - Throws: ``HistoryError/unreadableDatabase(path:reason:)``,
  ///   ``HistoryError/foreignDatabase(path:)`` or ``HistoryError/newerSchema(path:)``.
  static func checkExisting(_ path: String) throws {
    do {
      let database = try readOnlyDatabase(path)
      defer { try? database.close() }
      try database.read { db in
        let applicationID = try db.fetchOne("PRAGMA application_id") { Int32($0.int64(0)) } ?? 0
        let objects = try db.fetchOne("SELECT count(*) FROM sqlite_master") { $0.int(0) } ?? 0
        guard applicationID == HistorySchema.applicationID || (applicationID == 0 && objects == 0)
        else {
          throw HistoryError.foreignDatabase(path: path)
        }
        if try HistorySchema.hasBeenSuperseded(db) {
          throw HistoryError.newerSchema(path: path)
        }
      }
    } catch let error as HistoryError {
      throw error
    } catch let error as SQLiteError {
      throw HistoryError.unreadableDatabase(
        path: path, reason: error.message ?? "SQLite error \(error.resultCode)")
    }
  }

  /// Opens the database: a writer in WAL mode with the schema migrated to the newest
  /// version, a reader read-only on a schema that is complete.
  static func openDatabase(_ path: String, access: Access) throws -> SQLiteDatabase {
    do {
      switch access {
      case .writer:
        // A reader in another process may hold the database for a moment while it
        // checkpoints: the connection waits up to 5 s for it.
        let connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.enableWriteAheadLog()
        try HistorySchema.migrate(connection)
        return SQLiteDatabase(connection)
      case .reader:
        let database = try readOnlyDatabase(path)
        let complete = try database.read { try HistorySchema.hasCompletedMigrations($0) }
        if !complete { throw HistoryError.missingDatabase(path: path) }
        return database
      }
    } catch let error as HistoryError {
      throw error
    } catch let error as SQLiteError {
      if error.resultCode == SQLiteError.full { throw HistoryError.diskFull(path: path) }
      if error.resultCode == SQLiteError.readOnly || error.resultCode == SQLiteError.cannotOpen {
        throw HistoryError.readOnlyDirectory(path: directory(of: path))
      }
      throw HistoryError.unreadableDatabase(
        path: path, reason: error.message ?? "SQLite error \(error.resultCode)")
    }
  }

  /// A read-only connection. In a directory that cannot be written, where SQLite cannot make
  /// the shared-memory file a WAL database is read through, the database is opened as
  /// immutable: no writer can be at work there (it could not write its log either), so
  /// nothing changes under the reader. What a crash left in a write-ahead log that was never
  /// checkpointed is then not seen.
  static func readOnlyDatabase(_ path: String) throws -> SQLiteDatabase {
    do {
      let database = try SQLiteDatabase(path: path, readOnly: true)
      _ = try database.read { try $0.fetchOne("SELECT count(*) FROM sqlite_master") { $0.int(0) } }
      return database
    } catch let error as SQLiteError where error.resultCode == SQLiteError.cannotOpen {
      guard Glibc.access(directory(of: path), W_OK) != 0 else { throw error }
      return try SQLiteDatabase(
        path: "file:\(uriEscaped(path))?immutable=1", readOnly: true, uri: true)
    }
  }

  /// The directory part of `path` (`/a/b` of `/a/b/c`; `.` when there is none).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `path` as the path of a `file:` URI: every byte but letters, digits, `-._~` and `/`
  /// percent-escaped.
  static func uriEscaped(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var escaped: [UInt8] = []
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        escaped.append(byte)
      default:
        escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: escaped, as: UTF8.self)
  }
}
