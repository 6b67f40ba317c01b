import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
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
      let queue = try readOnlyQueue(path, label: "ClipboardHistory.check")
      defer { try? queue.close() }
      try queue.read { db in
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        guard applicationID == HistorySchema.applicationID || (applicationID == 0 && objects == 0)
        else {
          throw HistoryError.foreignDatabase(path: path)
        }
        if try HistorySchema.migrator.hasBeenSuperseded(db) {
          throw HistoryError.newerSchema(path: path)
        }
      }
    } catch let error as HistoryError {
      throw error
    } catch let error as DatabaseError {
      throw HistoryError.unreadableDatabase(
        path: path, reason: error.message ?? "\(error.resultCode)")
    }
  }

  /// Opens the database: a writer in WAL mode with the schema migrated to the newest
  /// version, a reader read-only on a schema that is complete.
  static func openDatabase(_ path: String, access: Access) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.label = "ClipboardHistory"
    // A reader in another process may hold the database for a moment while it checkpoints.
    configuration.busyMode = .timeout(5)
    configuration.journalMode = .wal
    do {
      let queue =
        try access == .writer
        ? DatabaseQueue(path: path, configuration: configuration)
        : readOnlyQueue(path, label: "ClipboardHistory")
      switch access {
      case .writer:
        try HistorySchema.migrator.migrate(queue)
      case .reader:
        let complete = try queue.read { try HistorySchema.migrator.hasCompletedMigrations($0) }
        if !complete { throw HistoryError.missingDatabase(path: path) }
      }
      return queue
    } catch let error as HistoryError {
      throw error
    } catch let error as DatabaseError {
      if error.resultCode == .SQLITE_FULL { throw HistoryError.diskFull(path: path) }
      if error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
        throw HistoryError.readOnlyDirectory(path: (path as NSString).deletingLastPathComponent)
      }
      throw HistoryError.unreadableDatabase(
        path: path, reason: error.message ?? "\(error.resultCode)")
    }
  }

  /// A read-only connection. In a directory that cannot be written, where SQLite cannot make
  /// the shared-memory file a WAL database is read through, the database is opened as
  /// immutable: no writer can be at work there (it could not write its log either), so
  /// nothing changes under the reader. What a crash left in a write-ahead log that was never
  /// checkpointed is then not seen.
  static func readOnlyQueue(_ path: String, label: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.label = label
    configuration.busyMode = .timeout(5)
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
      return queue
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
      let directory = (path as NSString).deletingLastPathComponent
      guard Glibc.access(directory, W_OK) != 0,
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
      else { throw error }
      return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration)
    }
  }
}
