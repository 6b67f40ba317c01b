import FerrySystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The persistent clipboard history: every representation of every copy, in order, in an
/// SQLite database with full-text search, large bytes in content-addressed files.
///
/// A data directory holds:
///
///     history.sqlite        the entries, small representations inline, the search index
///     history.sqlite-wal    SQLite's write-ahead log (and -shm, its index)
///     history.lock          the writer's lock (flock), holding the writer's process id
///     blobs/<sha256>        representations over 64 KiB, one file per distinct content
///
/// ```swift
/// let store = try HistoryStore(directory: HistoryStore.defaultDirectory())
/// let result = try store.record(HistoryItem(
///   pasteboard: "general", changeCount: 7, source: "gedit",
///   representations: [.data(Data("hello".utf8), type: "public.utf8-plain-text", isText: true)]))
/// let recent = try store.list(limit: 50)
/// let found = try store.search("hel")
/// let bytes = try store.contents(of: recent[0].id, at: 0)
/// ```
///
/// One store writes a history at a time (``Access/writer``, guarded by an exclusive lock
/// file); any number may read it (``Access/reader``), in this process or others.
///
/// The API is synchronous and does file and database work on the calling thread: call it
/// from a background serial context, never from an event loop. The store is safe to share
/// between threads; changes run one at a time.
public final class HistoryStore: Sendable {
  /// How a store opens a history.
  public enum Access: Sendable, Hashable {
    /// Reads and writes: takes the writer's lock, creates the directory and the database,
    /// migrates the schema, and sweeps blobs no entry names.
    case writer
    /// Reads only, alongside a writer in another process; changes nothing on disk.
    case reader
  }

  /// The database's file name in the data directory.
  public static let databaseName = "history.sqlite"
  /// The writer's lock file's name in the data directory.
  public static let lockName = "history.lock"
  /// The blob directory's name in the data directory.
  public static let blobsName = "blobs"
  /// The largest representation kept inline in the database, in bytes; larger ones go to
  /// blob files. 64 KiB: SQLite reads blobs below about 100 KB faster from the database than
  /// from separate files (sqlite.org/intern-v-extern-blob.html), and at this size the
  /// database stays small enough (64 MiB at the default 1,000 entries) to cache.
  public static let inlineLimit = 64 << 10

  /// The data directory.
  public let directory: URL
  /// How the history was opened.
  public let access: Access
  /// The limits applied after each recording.
  public let limits: HistoryLimits

  let database: SQLiteDatabase
  let blobs: BlobStore
  let lock: WriterLock?
  /// Changes (recording, deleting, pinning) run one at a time: a sweep must never see a
  /// blob another change has written but not yet committed.
  let changes = TrackedMutex(())

  /// The database file's path.
  public var databasePath: String { directory.appendingPathComponent(Self.databaseName).path }

  /// Opens the history in `directory`, creating it for a writer.
  ///
  /// - Parameters:
  ///   - directory: The data directory (``defaultDirectory(environment:)`` for the user's).
  ///   - access: Whether this store writes; see ``Access``.
  ///   - limits: The limits applied after each recording.
  /// - Throws: ``HistoryError``: ``HistoryError/writerExists(lockPath:pid:)`` when another
  ///   store writes this history; ``HistoryError/readOnlyDirectory(path:)``;
  ///   ``HistoryError/unreadableDatabase(path:reason:)``,
  ///   ``HistoryError/foreignDatabase(path:)`` or ``HistoryError/newerSchema(path:)`` for a
  ///   database file it will not use, which is left untouched;
  ///   ``HistoryError/missingDatabase(path:)`` for a reader of a history not made yet.
  public init(directory: URL, access: Access = .writer, limits: HistoryLimits = HistoryLimits())
    throws
  {
    self.directory = directory.standardizedFileURL
    self.access = access
    self.limits = limits
    let path = self.directory.path
    let databasePath = self.directory.appendingPathComponent(Self.databaseName).path
    blobs = BlobStore(directory: self.directory.appendingPathComponent(Self.blobsName).path)
    switch access {
    case .writer:
      try FileCalls.makeDirectory(path)
      lock = try WriterLock(path: self.directory.appendingPathComponent(Self.lockName).path)
      try FileCalls.makeDirectory(blobs.directory)
    case .reader:
      guard FileCalls.size(of: databasePath) != nil else {
        throw HistoryError.missingDatabase(path: databasePath)
      }
      lock = nil
    }
    if let size = FileCalls.size(of: databasePath), size > 0 {
      try Self.checkExisting(databasePath)
    }
    database = try Self.openDatabase(databasePath, access: access)
    if access == .writer {
      blobs.sweep(keeping: try referencedBlobs())
    }
  }

  /// Closes the database and lets the writer's lock go. Later calls throw.
  public func close() throws {
    defer { lock?.release() }
    try mapErrors { try database.close() }
  }

  /// The user's history directory: `$XDG_DATA_HOME/ferry`, else `~/.local/share/ferry`.
  ///
  /// The history is data, not state: it holds what the user copied, and pinned entries
  /// are kept on purpose (docs/HISTORY.md says more).
  ///
  /// - Parameter environment: The environment to read `XDG_DATA_HOME` and `HOME` from.
  public static func defaultDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    // The XDG base directory specification ignores a relative path.
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return URL(fileURLWithPath: data).appendingPathComponent("ferry")
    }
    let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
    return URL(fileURLWithPath: home).appendingPathComponent(".local/share/ferry")
  }

  /// The digests of every blob a row names.
  func referencedBlobs() throws -> Set<String> {
    try mapErrors {
      try database.read { db in
        Set(
          try db.fetchAll("SELECT DISTINCT sha256 FROM representation WHERE inFile = 1") {
            $0.string(0)
          })
      }
    }
  }

  /// Runs `body`, turning the database's errors into ``HistoryError``.
  func mapErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as HistoryError {
      throw error
    } catch let error as SQLiteError {
      switch error.resultCode {
      case SQLiteError.full: throw HistoryError.diskFull(path: databasePath)
      case SQLiteError.readOnly: throw HistoryError.readOnlyStore(path: databasePath)
      default:
        throw HistoryError.database(
          path: databasePath, reason: error.message ?? "SQLite error \(error.resultCode)")
      }
    } catch {
      throw HistoryError.database(path: databasePath, reason: "\(error)")
    }
  }

  /// Throws unless this store writes.
  func requireWriter() throws {
    if lock == nil { throw HistoryError.readOnlyStore(path: databasePath) }
  }
}
