/// The database's tables, versioned from the first version on by migrations recorded as
/// GRDB's `DatabaseMigrator` recorded them (the history was written through GRDB until
/// issue 31): each applied migration's name is a row of `grdb_migrations`. docs/HISTORY.md
/// describes each column.
enum HistorySchema {
  /// `PRAGMA application_id` of a Ferry history ("FRHS"): how a foreign SQLite file is told
  /// apart from ours before anything is written to it.
  static let applicationID: Int32 = 0x4652_4853

  /// The migrations, oldest first, by name. A migration, once released, never changes: a
  /// new schema is a new migration.
  static let migrations: [(name: String, apply: @Sendable (SQLiteConnection) throws -> Void)] = [
    (
      "v1",
      { db in
        try db.execute("PRAGMA application_id = \(applicationID)")
        try db.execute(version1)
      }
    )
  ]

  /// The names of the migrations a database has had: none when it has no migration table.
  static func appliedMigrations(_ db: SQLiteConnection) throws -> Set<String> {
    let hasTable = try db.fetchOne(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'"
    ) { _ in true }
    guard hasTable == true else { return [] }
    return Set(try db.fetchAll("SELECT identifier FROM grdb_migrations") { $0.string(0) })
  }

  /// Whether the database has a migration this build does not know: a newer Ferry's schema.
  static func hasBeenSuperseded(_ db: SQLiteConnection) throws -> Bool {
    let known = Set(migrations.map(\.name))
    return try !appliedMigrations(db).isSubset(of: known)
  }

  /// Whether the database has every migration this build knows.
  static func hasCompletedMigrations(_ db: SQLiteConnection) throws -> Bool {
    try Set(migrations.map(\.name)).isSubset(of: appliedMigrations(db))
  }

  /// Applies the migrations the database has not had, in order, each in a transaction of
  /// its own with foreign keys checked before it commits (as GRDB's migrator did).
  static func migrate(_ db: SQLiteConnection) throws {
    try db.execute(
      "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    let applied = try appliedMigrations(db)
    for migration in migrations where !applied.contains(migration.name) {
      try db.execute("PRAGMA foreign_keys = OFF")
      defer { try? db.execute("PRAGMA foreign_keys = ON") }
      try db.transaction(immediate: true) {
        try migration.apply(db)
        try db.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [migration.name])
        let violation = try db.fetchOne("PRAGMA foreign_key_check") { _ in true }
        if violation == true {
          throw SQLiteError(
            19, message: "FOREIGN KEY constraint failed", sql: "PRAGMA foreign_key_check")
        }
      }
    }
  }

  /// The first schema.
  private static let version1 = """
    CREATE TABLE entry (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      sequence INTEGER NOT NULL UNIQUE,
      pasteboard TEXT NOT NULL,
      recordedAt REAL NOT NULL,
      changeCount INTEGER NOT NULL,
      source TEXT,
      pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
      totalSize INTEGER NOT NULL,
      preview TEXT,
      digest TEXT NOT NULL
    );
    CREATE INDEX entry_by_pasteboard ON entry(pasteboard, sequence);
    CREATE UNIQUE INDEX entry_by_digest ON entry(pasteboard, digest);
    CREATE INDEX entry_unpinned ON entry(sequence) WHERE pinned = 0;

    CREATE TABLE representation (
      entryId INTEGER NOT NULL REFERENCES entry(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      type TEXT NOT NULL,
      size INTEGER NOT NULL,
      isText INTEGER NOT NULL CHECK (isText IN (0, 1)),
      sha256 TEXT NOT NULL,
      inFile INTEGER NOT NULL CHECK (inFile IN (0, 1)),
      inlineData BLOB,
      PRIMARY KEY (entryId, position)
    );
    CREATE INDEX representation_by_blob ON representation(sha256) WHERE inFile = 1;

    CREATE VIRTUAL TABLE entryText USING fts5(
      text, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    );

    CREATE TABLE totals (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      entries INTEGER NOT NULL,
      bytes INTEGER NOT NULL
    );
    INSERT INTO totals VALUES (1, 0, 0);

    CREATE TRIGGER entry_counted AFTER INSERT ON entry BEGIN
      UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.totalSize;
    END;
    CREATE TRIGGER entry_removed AFTER DELETE ON entry BEGIN
      UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.totalSize;
      DELETE FROM entryText WHERE rowid = OLD.id;
    END;
    """
}
