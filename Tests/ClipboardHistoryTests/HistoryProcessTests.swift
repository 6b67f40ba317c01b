import ClipboardHistory
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Faults on real processes: a full disk (a small tmpfs), a read-only data directory (a
/// read-only bind mount), both in a user and mount namespace of the fixture's own; and a
/// second process opening a history another one writes.
extension HistoryTestsInOrder {
  @Suite struct HistoryProcessTests {
    @Test(
      .enabled(
        if: HistoryTesting.namespacesAvailable,
        "needs a user namespace (unshare -rm) to mount a tmpfs"))
    func aFullDiskWhileWritingABlobDropsThatCopyAlone() async throws {
      let scratch = try HistoryTesting.makeScratchDirectory()
      defer { try? FileManager.default.removeItem(at: scratch) }
      do {
        let mount = scratch.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let large = scratch.appendingPathComponent("large")
        try HistoryTesting.bytes(8 << 20).write(to: large)

        let result = try await HistoryTesting.runInNamespace(
          setup: "mount -t tmpfs -o size=4m tmpfs \"$2\"",
          fixture: ["fill-blob", mount.path, large.path])

        #expect(result.status == 0, "\(result.stderrText)")
        #expect(
          result.stdoutText.split(separator: "\n") == [
            "before recorded", "large error diskFull", "blob files 0", "after recorded",
            "blob recorded",
            "entries -,after,before",
          ])
      }
    }

    @Test(
      .enabled(
        if: HistoryTesting.namespacesAvailable,
        "needs a user namespace (unshare -rm) to mount a tmpfs"))
    func aFullDiskWhileWritingTheDatabaseDropsThatCopyAlone() async throws {
      let scratch = try HistoryTesting.makeScratchDirectory()
      defer { try? FileManager.default.removeItem(at: scratch) }
      do {
        let mount = scratch.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)

        let result = try await HistoryTesting.runInNamespace(
          setup: "mount -t tmpfs -o size=2m tmpfs \"$2\"", fixture: ["fill-database", mount.path])

        #expect(result.status == 0, "\(result.stderrText)")
        #expect(
          result.stdoutText.split(separator: "\n") == [
            "before recorded", "full error diskFull", "after recorded", "entries after,before",
          ])
      }
    }

    @Test(
      .enabled(
        if: HistoryTesting.namespacesAvailable,
        "needs a user namespace (unshare -rm) for a read-only bind mount"))
    func aReadOnlyDirectoryRefusesAWriterAndServesAReader() async throws {
      let scratch = try HistoryTesting.makeScratchDirectory()
      defer { try? FileManager.default.removeItem(at: scratch) }
      do {
        let directory = scratch.appendingPathComponent("history")
        let store = try HistoryStore(directory: directory)
        _ = try store.record(HistoryTesting.text("one"))
        _ = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 2,
            representations: [.data(HistoryTesting.bytes(100_000), type: "public.png")]))
        try store.close()
        let before = HistoryTesting.names(in: directory)
        let readOnly = "mount --bind \"$2\" \"$2\"; mount -o remount,bind,ro \"$2\""

        let writer = try await HistoryTesting.runInNamespace(
          setup: readOnly, fixture: ["open", directory.path, "writer"])
        let reader = try await HistoryTesting.runInNamespace(
          setup: readOnly, fixture: ["open", directory.path, "reader"])

        #expect(writer.status == 3)
        #expect(
          writer.stdoutText.hasPrefix("error readOnlyDirectory \(directory.path): "),
          "\(writer.stdoutText)")
        #expect(reader.status == 0, "\(reader.stdoutText) \(reader.stderrText)")
        #expect(reader.stdoutText.split(separator: "\n") == ["opened 2", "ok 2 0", "ok 1 0"])
        #expect(HistoryTesting.names(in: directory) == before)
      }
    }

    @Test func aSecondProcessCannotWriteButCanRead() async throws {
      let scratch = try HistoryTesting.makeScratchDirectory()
      defer { try? FileManager.default.removeItem(at: scratch) }
      let directory = scratch.appendingPathComponent("history")
      let store = try HistoryStore(directory: directory)
      defer { try? store.close() }
      do {
        _ = try store.record(HistoryTesting.text("held"))

        let writer = try await HistoryTesting.runFixture(["open", directory.path, "writer"])
        let reader = try await HistoryTesting.runFixture(["open", directory.path, "reader"])

        #expect(writer.status == 3)
        #expect(writer.stdoutText.hasPrefix("error writerExists"))
        #expect(
          writer.stdoutText.contains("process \(getpid()) already writes this history"),
          "\(writer.stdoutText)")
        #expect(reader.status == 0)
        #expect(reader.stdoutText.split(separator: "\n") == ["opened 1", "ok 1 0"])
        #expect(try store.record(HistoryTesting.text("still writing")).id != nil)
      }
    }

    @Test func aKilledWritersLockIsFreeAtOnce() async throws {
      let fixture = try HistoryTesting.fixture()
      let scratch = try HistoryTesting.makeScratchDirectory()
      defer { try? FileManager.default.removeItem(at: scratch) }
      do {
        let directory = scratch.appendingPathComponent("history")
        let recorded = try await DetachedThread.run {
          let child = try PeerProcess(
            [fixture, "record-loop", directory.path, "lock"], display: nil)
          let recorded = child.waitForOutput("recorded", timeout: .seconds(60))
          _ = child.kill(signal: SIGKILL)
          return recorded
        }
        try #require(recorded, "the fixture never recorded")

        let store = try HistoryStore(directory: directory)
        defer { try? store.close() }
        #expect(try store.list().count >= 1)
      }
    }
  }
}
