import GRDB

/// The database's tables, versioned by GRDB's `DatabaseMigrator` from the first version on.
/// docs/HISTORY.md describes each column.
enum HistorySchema {
  /// `PRAGMA application_id` of a Ferry history ("FRHS"): how a foreign SQLite file is told
  /// apart from ours before anything is written to it.
  static let applicationID: Int32 = 0x4652_4853

  /// The migrations, oldest first. A migration, once released, never changes: a new schema
  /// is a new migration.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(sql: "PRAGMA application_id = \(applicationID)")
      try db.execute(sql: version1)
    }
    return migrator
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
