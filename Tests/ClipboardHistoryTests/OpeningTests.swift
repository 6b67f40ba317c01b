import ClipboardHistory
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Opening a history: what persists, the files it will not use (left untouched), the one
/// writer, readers beside it, and what the writer sweeps at open.
extension HistoryTestsInOrder {
  @Suite struct OpeningTests {
    @Test func theHistoryOutlivesItsStore() throws {
      try HistoryTesting.withScratchDirectory { scratch in
        let directory = scratch.appendingPathComponent("history")
        let image = HistoryTesting.bytes(100_000)
        var store = try HistoryStore(directory: directory)
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [
                .data(Data("a".utf8), type: "public.utf8-plain-text", isText: true),
                .data(image, type: "public.png"),
              ])))
        try store.setPinned(true, id)
        try store.close()

        store = try HistoryStore(directory: directory)
        defer { try? store.close() }

        let entry = try #require(try store.newest(pasteboard: "general"))
        #expect(entry.id == id)
        #expect(entry.isPinned)
        #expect(try store.contents(of: id, at: 1).data() == image)
        #expect(try store.search("a").map(\.id) == [id])
        #expect(
          HistoryTesting.names(in: directory) == [
            "blobs", "history.lock", "history.sqlite", "history.sqlite-shm", "history.sqlite-wal",
          ])
      }
    }

    @Test func theDatabaseIsInWALMode() throws {
      try HistoryTesting.withStore { store, directory in
        _ = try store.record(HistoryTesting.text("x"))
        let mode = try SQLiteDatabase(
          path: directory.appendingPathComponent(HistoryStore.databaseName).path
        )
        .read { try $0.fetchOne("PRAGMA journal_mode") { $0.string(0) } }
        #expect(mode == "wal")
      }
    }

    enum BadFile: String, CaseIterable, Sendable {
      case garbage, truncatedHeader, foreignDatabase, newerSchema
    }

    @Test(arguments: BadFile.allCases)
    func aDatabaseItWillNotUseIsATypedErrorAndLeftUntouched(_ bad: BadFile) throws {
      try HistoryTesting.withScratchDirectory { directory in
        let path = directory.appendingPathComponent(HistoryStore.databaseName).path
        try Self.make(bad, at: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let namesBefore = HistoryTesting.names(in: directory)

        for access in [HistoryStore.Access.writer, .reader] {
          do {
            _ = try HistoryStore(directory: directory, access: access)
            Issue.record("\(bad) opened as \(access)")
          } catch let error as HistoryError {
            switch (bad, error) {
            case (.garbage, .unreadableDatabase(let named, _)),
              (.truncatedHeader, .unreadableDatabase(let named, _)),
              (.foreignDatabase, .foreignDatabase(let named)),
              (.newerSchema, .newerSchema(let named)):
              #expect(named == path)
              #expect(error.description.hasPrefix(path))
            default:
              Issue.record("\(bad) as \(access): \(error)")
            }
          }
        }

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // Reading a WAL-mode database (the newer history) needs SQLite's -wal and -shm beside it.
        let companions: Set =
          bad == .newerSchema ? ["history.sqlite-wal", "history.sqlite-shm"] : []
        let added = Set(HistoryTesting.names(in: directory)).subtracting(namesBefore)
        #expect(
          added.isSubset(of: companions.union(["history.lock", "blobs"])),
          "a journal beside the file: \(added)")
      }
    }

    static func make(_ bad: BadFile, at path: String) throws {
      switch bad {
      case .garbage:
        try Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(
          to: URL(fileURLWithPath: path))
      case .truncatedHeader:
        try Data("SQLite format 3\0".utf8).write(to: URL(fileURLWithPath: path))
      case .foreignDatabase:
        try SQLiteDatabase(path: path).write {
          try $0.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
        }
      case .newerSchema:
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try HistoryStore(directory: directory).close()
        try SQLiteDatabase(path: path).write {
          try $0.execute("INSERT INTO grdb_migrations VALUES ('v99')")
        }
        try SQLiteDatabase(path: path).withoutTransaction { try $0.checkpointTruncating() }
        for name in ["history.lock", "blobs", "history.sqlite-wal", "history.sqlite-shm"] {
          try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
      }
    }

    @Test func anEmptyFileBecomesAHistory() throws {
      try HistoryTesting.withScratchDirectory { directory in
        _ = FileManager.default.createFile(
          atPath: directory.appendingPathComponent(HistoryStore.databaseName).path, contents: Data()
        )
        let store = try HistoryStore(directory: directory)
        defer { try? store.close() }
        #expect(try store.record(HistoryTesting.text("x")).id != nil)
      }
    }

    @Test func aSecondWriterIsRefusedNamingTheHolder() throws {
      try HistoryTesting.withStore { store, directory in
        #expect(
          throws: HistoryError.writerExists(
            lockPath: directory.appendingPathComponent("history.lock").path, pid: getpid())
        ) {
          try HistoryStore(directory: directory)
        }
        // The first writer is unharmed, and the lock is free once it closes.
        #expect(try store.record(HistoryTesting.text("still mine")).id != nil)
        try store.close()
        // Free "once it closes", as the kernel sees it: a child another test spawns at that
        // moment holds a copy of the descriptor (and so the flock) from its fork until its
        // exec closes it, which under load took long enough for the next open to find the
        // lock held (a clean-clone run, 2026-11-27).
        var next: HistoryStore?
        #expect(
          Deadline.wait(for: .seconds(10)) {
            next = try? HistoryStore(directory: directory)
            return next != nil
          })
        #expect(try next?.list().count == 1)
        try next?.close()
      }
    }

    @Test func aReaderSeesTheWritersChangesAndChangesNothing() throws {
      try HistoryTesting.withStore { store, directory in
        let reader = try HistoryStore(directory: directory, access: .reader)
        defer { try? reader.close() }
        let id = try HistoryTesting.id(try store.record(HistoryTesting.text("from the writer")))

        #expect(try reader.list().map(\.id) == [id])
        #expect(try reader.search("writer").map(\.id) == [id])
        #expect(try reader.contents(of: id, at: 0).data() == Data("from the writer".utf8))
        #expect(try reader.status().access == .reader)
        let path = directory.appendingPathComponent(HistoryStore.databaseName).path
        #expect(throws: HistoryError.readOnlyStore(path: path)) {
          try reader.record(HistoryTesting.text("no"))
        }
        #expect(throws: HistoryError.readOnlyStore(path: path)) { try reader.delete([id]) }
        #expect(throws: HistoryError.readOnlyStore(path: path)) { try reader.setPinned(true, id) }
        #expect(throws: HistoryError.readOnlyStore(path: path)) { try reader.clear() }
        #expect(try store.list().map(\.id) == [id])
      }
    }

    @Test func aReaderOfNoHistoryIsATypedError() throws {
      try HistoryTesting.withScratchDirectory { directory in
        #expect(
          throws: HistoryError.missingDatabase(
            path: directory.appendingPathComponent(HistoryStore.databaseName).path)
        ) {
          try HistoryStore(directory: directory, access: .reader)
        }
        #expect(HistoryTesting.names(in: directory).isEmpty)
      }
    }

    @Test func theWriterSweepsStagingFilesAndUnnamedBlobsAtOpen() throws {
      try HistoryTesting.withScratchDirectory { scratch in
        let directory = scratch.appendingPathComponent("history")
        var store = try HistoryStore(directory: directory)
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [.data(HistoryTesting.bytes(100_000), type: "public.png")])))
        let kept = try #require(try store.entry(id)).representations[0].sha256
        try store.close()
        let blobs = directory.appendingPathComponent("blobs")
        let orphan = String(repeating: "ab", count: 32)
        for name in [orphan, ".staging-123-crashed", "README"] {
          try Data("left".utf8).write(to: blobs.appendingPathComponent(name))
        }

        store = try HistoryStore(directory: directory)
        defer { try? store.close() }

        #expect(
          HistoryTesting.names(in: blobs) == ["README", kept].sorted(),
          "what is not a blob's name is left alone")
      }
    }

    @Test func theDefaultDirectoryFollowsXDGDataHome() {
      #expect(
        HistoryStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
          .path == "/data/ferry")
      #expect(
        HistoryStore.defaultDirectory(environment: ["HOME": "/home/u"]).path
          == "/home/u/.local/share/ferry")
      #expect(
        HistoryStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
          .path
          == "/home/u/.local/share/ferry", "a relative XDG_DATA_HOME is ignored")
    }
  }
}
