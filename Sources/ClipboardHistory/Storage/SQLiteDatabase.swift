internal import CSQLite
import FerrySystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A failed SQLite call: its result code and SQLite's message.
package struct SQLiteError: Error, CustomStringConvertible {
  /// The extended result code (`SQLITE_IOERR_WRITE`, …).
  package let extendedCode: Int32
  /// SQLite's message (`sqlite3_errmsg`), if it gave one.
  package let message: String?
  /// The statement that failed, if any.
  package let sql: String?

  /// The primary result code (`SQLITE_FULL`, `SQLITE_READONLY`, …).
  package var resultCode: Int32 { extendedCode & 0xFF }

  init(_ code: Int32, message: String?, sql: String? = nil) {
    extendedCode = code
    self.message = message
    self.sql = sql
  }

  package var description: String {
    var text = "SQLite error \(resultCode)"
    if let message { text += ": \(message)" }
    if let sql { text += " - while executing `\(sql)`" }
    return text
  }

  package static var full: Int32 { SQLITE_FULL }
  package static var readOnly: Int32 { SQLITE_READONLY }
  package static var cannotOpen: Int32 { SQLITE_CANTOPEN }
}

/// A value a statement's parameter takes.
package protocol SQLiteValue {
  /// Binds the value to parameter `index` (from 1) of `statement`; SQLite's result code.
  func bind(to statement: SQLiteStatement, at index: Int32) -> Int32
}

extension Int64: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement.handle, index, self)
  }
}

extension Int: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement.handle, index, Int64(self))
  }
}

extension Int32: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement.handle, index, Int64(self))
  }
}

extension Bool: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement.handle, index, self ? 1 : 0)
  }
}

extension Double: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    sqlite3_bind_double(statement.handle, index, self)
  }
}

extension String: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    var text = self
    return text.withUTF8 { bytes in
      // A pointer even for the empty string: a null one would bind NULL.
      guard let base = bytes.baseAddress, !bytes.isEmpty else {
        return cferry_sqlite3_bind_text_copy(statement.handle, index, "", 0)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        cferry_sqlite3_bind_text_copy(statement.handle, index, $0, Int32(bytes.count))
      }
    }
  }
}

extension Data: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    // An empty blob, not NULL (a null pointer would bind NULL).
    if isEmpty { return sqlite3_bind_zeroblob(statement.handle, index, 0) }
    return withUnsafeBytes {
      cferry_sqlite3_bind_blob_copy(statement.handle, index, $0.baseAddress, Int32($0.count))
    }
  }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
  package func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    switch self {
    case .some(let value): value.bind(to: statement, at: index)
    case .none: sqlite3_bind_null(statement.handle, index)
    }
  }
}

/// A prepared statement. While a step has a row, its columns are read by position, from 0.
package final class SQLiteStatement {
  let handle: OpaquePointer
  /// The statement's text.
  package let sql: String

  init(_ handle: OpaquePointer, sql: String) {
    self.handle = handle
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  private func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code, message: SQLiteConnection.message(sqlite3_db_handle(handle)), sql: sql)
  }

  /// Resets the statement and binds `arguments` to its parameters, in order.
  func bind(_ arguments: [any SQLiteValue]) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, argument) in arguments.enumerated() {
      let code = argument.bind(to: self, at: Int32(offset + 1))
      if code != SQLITE_OK { throw error(code) }
    }
  }

  /// Steps once: `true` with a row to read, `false` when done.
  func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let failure = error(code)
      sqlite3_reset(handle)
      throw failure
    }
  }

  /// Runs the statement to its end with `arguments`.
  package func execute(_ arguments: [any SQLiteValue] = []) throws(SQLiteError) {
    try bind(arguments)
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Every row, each read by `read`.
  package func fetchAll<T>(
    _ arguments: [any SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T
  ) throws -> [T] {
    try bind(arguments)
    defer { sqlite3_reset(handle) }
    var rows: [T] = []
    while try step() { rows.append(try read(self)) }
    return rows
  }

  /// The first row read by `read`, or `nil` when there is none.
  package func fetchOne<T>(
    _ arguments: [any SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T
  ) throws -> T? {
    try bind(arguments)
    defer { sqlite3_reset(handle) }
    return try step() ? read(self) : nil
  }

  /// Whether column `index` of the current row is NULL.
  package func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

  /// Column `index` as an integer (NULL reads as 0).
  package func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

  /// Column `index` as an integer (NULL reads as 0).
  package func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

  /// Column `index` as a number (NULL reads as 0).
  package func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

  /// Column `index` as a flag: any integer but 0 is true.
  package func bool(_ index: Int32) -> Bool { sqlite3_column_int64(handle, index) != 0 }

  /// Column `index` as text (NULL reads as the empty string).
  package func string(_ index: Int32) -> String { optionalString(index) ?? "" }

  /// Column `index` as text, or `nil` for NULL.
  package func optionalString(_ index: Int32) -> String? {
    guard let text = sqlite3_column_text(handle, index) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// Column `index` as bytes, or `nil` for NULL.
  package func data(_ index: Int32) -> Data? {
    if isNull(index) { return nil }
    let bytes = sqlite3_column_blob(handle, index)
    let count = Int(sqlite3_column_bytes(handle, index))
    guard let bytes, count > 0 else { return Data() }
    return Data(bytes: bytes, count: count)
  }
}

/// One SQLite connection, set up as ClipboardHistory opens its database: extended result
/// codes, a busy timeout, foreign keys enforced, no double-quoted string literals. Not safe to
/// share between threads: ``SQLiteDatabase`` serializes its use.
package final class SQLiteConnection {
  private var handle: OpaquePointer?
  /// Statements prepared once and reused, by their text.
  private var statements: [String: SQLiteStatement] = [:]
  /// The path (or `file:` URI) it was opened with.
  package let path: String

  /// Opens `path`: read-write (creating the file) or read-only; a `file:` URI when `uri`.
  ///
  /// - Parameter busyTimeout: How long a statement waits for another connection's lock.
  package init(path: String, readOnly: Bool, uri: Bool = false, busyTimeout: Duration = .seconds(5))
    throws(SQLiteError)
  {
    self.path = path
    var flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    if uri { flags |= SQLITE_OPEN_URI }
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = SQLiteError(code, message: connection.flatMap(Self.message))
      sqlite3_close_v2(connection)
      throw error
    }
    handle = connection
    sqlite3_extended_result_codes(connection, 1)
    let (seconds, attoseconds) = busyTimeout.components
    sqlite3_busy_timeout(connection, Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    _ = cferry_sqlite3_disable_double_quoted_strings(connection)
    do {
      try execute("PRAGMA foreign_keys = ON")
      // A file that is not a database fails here, not at its first use.
      let check = try cachedStatement("SELECT * FROM sqlite_master LIMIT 1")
      try check.bind([])
      _ = try check.step()
      sqlite3_reset(check.handle)
    } catch {
      try? close()
      throw error
    }
  }

  deinit { try? close() }

  static func message(_ connection: OpaquePointer?) -> String? {
    guard let connection, let text = sqlite3_errmsg(connection) else { return nil }
    return String(cString: text)
  }

  private func open() throws(SQLiteError) -> OpaquePointer {
    guard let handle else { throw SQLiteError(SQLITE_MISUSE, message: "Connection is closed") }
    return handle
  }

  /// Closes the connection. Later calls throw.
  package func close() throws(SQLiteError) {
    guard let handle else { return }
    statements.removeAll()  // finalized
    let code = sqlite3_close(handle)
    if code != SQLITE_OK { throw SQLiteError(code, message: Self.message(handle)) }
    self.handle = nil
  }

  /// Runs `sql`, which may hold several statements, with no arguments.
  package func execute(_ sql: String) throws(SQLiteError) {
    let connection = try open()
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(connection, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    if code != SQLITE_OK {
      throw SQLiteError(
        code, message: message.map { String(cString: $0) } ?? Self.message(connection), sql: sql)
    }
  }

  /// The statement for `sql`, prepared on first use and kept for the connection's life.
  package func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let statement = statements[sql] { return statement }
    let connection = try open()
    var prepared: OpaquePointer?
    let code = sqlite3_prepare_v3(
      connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
    guard code == SQLITE_OK, let prepared else {
      throw SQLiteError(code, message: Self.message(connection), sql: sql)
    }
    let statement = SQLiteStatement(prepared, sql: sql)
    statements[sql] = statement
    return statement
  }

  /// Runs `sql` (one statement) with `arguments`.
  package func execute(_ sql: String, _ arguments: [any SQLiteValue]) throws(SQLiteError) {
    try cachedStatement(sql).execute(arguments)
  }

  /// The first row of `sql` read by `read`, or `nil`.
  package func fetchOne<T>(
    _ sql: String, _ arguments: [any SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T
  ) throws -> T? {
    try cachedStatement(sql).fetchOne(arguments, read)
  }

  /// Every row of `sql`, each read by `read`.
  package func fetchAll<T>(
    _ sql: String, _ arguments: [any SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T
  ) throws -> [T] {
    try cachedStatement(sql).fetchAll(arguments, read)
  }

  /// Rows the last INSERT, UPDATE or DELETE changed.
  package var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

  /// The row id of the last INSERT.
  package var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// Runs `body` in a transaction (`BEGIN DEFERRED` or `BEGIN IMMEDIATE`): committed when it
  /// returns, rolled back when it throws.
  package func transaction<T>(immediate: Bool = false, _ body: () throws -> T) throws -> T {
    try execute(immediate ? "BEGIN IMMEDIATE TRANSACTION" : "BEGIN DEFERRED TRANSACTION")
    let value: T
    do {
      value = try body()
    } catch {
      if let handle, sqlite3_get_autocommit(handle) == 0 {
        try? execute("ROLLBACK TRANSACTION")
      }
      throw error
    }
    do {
      try execute("COMMIT TRANSACTION")
    } catch {
      if let handle, sqlite3_get_autocommit(handle) == 0 {
        try? execute("ROLLBACK TRANSACTION")
      }
      throw error
    }
    return value
  }

  /// Puts the database in WAL mode, as a writer opens it: `synchronous = NORMAL`, and a
  /// write-ahead log that exists and is not empty, so that a read-only connection in another
  /// process can open the database while this one is open.
  package func enableWriteAheadLog() throws {
    let mode = try fetchOne("PRAGMA journal_mode = WAL") { $0.string(0) }
    guard mode == "wal" else {
      throw SQLiteError(SQLITE_ERROR, message: "could not activate WAL Mode at path: \(path)")
    }
    try execute("PRAGMA synchronous = NORMAL")
    var status = stat()
    if stat(path + "-wal", &status) != 0 || status.st_size == 0 {
      try execute(
        """
        SAVEPOINT wal; CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY);
        DROP TABLE grdb_issue_102; RELEASE SAVEPOINT wal
        """)
    }
  }

  /// Copies the write-ahead log into the database and empties it (`TRUNCATE` checkpoint).
  package func checkpointTruncating() throws(SQLiteError) {
    let connection = try open()
    let code = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    if code != SQLITE_OK { throw SQLiteError(code, message: Self.message(connection)) }
  }
}

/// A connection used by one thread at a time: every access holds its lock, as GRDB's
/// `DatabaseQueue` serialized them on its queue. Accesses do not nest.
package final class SQLiteDatabase: @unchecked Sendable {
  /// Held for every use of `connection`.
  private let lock = TrackedMutex(())
  private let connection: SQLiteConnection

  /// The path it was opened with.
  package let path: String

  package init(_ connection: SQLiteConnection) {
    path = connection.path
    self.connection = connection
  }

  /// Opens `path`; see ``SQLiteConnection/init(path:readOnly:uri:busyTimeout:)``.
  package convenience init(path: String, readOnly: Bool = false, uri: Bool = false)
    throws(SQLiteError)
  {
    self.init(try SQLiteConnection(path: path, readOnly: readOnly, uri: uri))
  }

  /// Runs `body` in a deferred transaction: what it reads is one snapshot of the database.
  package func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try lock.withLock { _ in try connection.transaction { try body(connection) } }
  }

  /// Runs `body` in an immediate transaction, committed when it returns and rolled back when
  /// it throws.
  package func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try lock.withLock { _ in try connection.transaction(immediate: true) { try body(connection) } }
  }

  /// Runs `body` outside any transaction.
  package func withoutTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try lock.withLock { _ in try body(connection) }
  }

  /// Closes the connection. Later accesses throw.
  package func close() throws {
    try lock.withLock { _ in try connection.close() }
  }
}
