import ClipboardHistory
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The history's faults on real processes, headless: whatever happens to the history, the
/// clipboard goes on working and nothing already kept is lost.
@Suite struct HistoryFaultTests {
  static func dataDirectory(_ fixture: BrokerFixture) -> URL {
    fixture.runtime.appendingPathComponent(".local/share/ferry")
  }

  /// Opens the fixture's history read-only, as another process would.
  static func reader(_ fixture: BrokerFixture) throws -> HistoryStore {
    try HistoryStore(directory: dataDirectory(fixture), access: .reader)
  }

  /// Waits until the history holds `count` entries.
  static func waitForEntries(_ fixture: BrokerFixture, _ count: Int) async -> Bool {
    await Deadline.wait(for: .seconds(20)) { () async -> Bool in
      guard let store = try? reader(fixture) else { return false }
      defer { try? store.close() }
      return ((try? store.status().entries) ?? 0) >= count
    }
  }

  /// `kill -9` at random moments while copies of every size are being recorded: each time,
  /// the history opens, and every entry it lists has every representation's bytes.
  @Test func aBrokerKilledWhileRecordingLeavesAHistoryThatOpensWhole() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    var generator = SplitMix64(seed: 52)
    let pbcopy = try Tools.path("pbcopy")
    var kept = 0
    for round in 0..<4 {
      try await fixture.startDaemon()
      // A shell copying in a loop: small texts (inline) and 200 KiB files (blobs).
      let script = """
        i=0; while true; do i=$((i+1)); printf 'round \(round) copy %d' $i | '\(pbcopy)'; \
        head -c 204800 /dev/urandom | '\(pbcopy)' --type public.data; done
        """
      let copier = try fixture.start(["sh", "-c", script])
      // Killed once a random number of further copies is recorded: mid-copy, mid-record, or
      // between the two.
      let further = 1 + Int(generator.next() % 6)
      #expect(await Self.waitForEntries(fixture, kept + further), "round \(round): recording")
      _ = kill(fixture.daemon?.pid ?? 0, SIGKILL)
      _ = await copier.stopped()
      _ = try await fixture.stop()

      let store = try Self.reader(fixture)
      defer { try? store.close() }
      let entries = try store.list(limit: 10_000)
      #expect(entries.count >= kept, "round \(round): nothing already kept is lost")
      kept = entries.count
      for entry in entries {
        for index in entry.representations.indices {
          let bytes = try store.contents(of: entry.id, at: index).data()
          #expect(
            Int64(bytes.count) == entry.representations[index].size,
            "round \(round): entry \(entry.id) is whole")
        }
      }
    }
    #expect(kept > 0, "something was recorded before the kills")
  }

  /// A history file that is not a history: one clear line in the log, the broker runs
  /// without a history, and the file is left exactly as it was.
  @Test func aDamagedDatabaseTurnsTheHistoryOffAndIsLeftUntouched() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let directory = Self.dataDirectory(fixture)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let database = directory.appendingPathComponent(HistoryStore.databaseName)
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: database)
    try await fixture.startDaemon()
    #expect(try await fixture.run(["pbcopy"], input: Data("still works".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "still works")
    let log = try await fixture.stop()
    let lines = log.split(separator: "\n").filter { $0.contains("history is off") }
    #expect(lines.count == 1 && lines[0].contains(database.path), "\(log.suffix(600))")
    #expect(try Data(contentsOf: database) == garbage, "the file is untouched")
  }

  /// A disk that fills while a copy's blob is written: that entry is dropped with one log
  /// line, the clipboard serves the copy, and the next copy is recorded.
  @Test func aFullDiskDropsOnlyTheEntryThatDidNotFit() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    // A file-size limit stands in for a full disk (EFBIG where a full disk gives ENOSPC):
    // the database stays below it; a 600 KiB blob does not fit.
    try await fixture.startDaemon(wrappedIn: ["prlimit", "--fsize=\(512 << 10)"])
    #expect(try await fixture.run(["pbcopy"], input: Data("small before".utf8)).status == 0)
    #expect(await Self.waitForEntries(fixture, 1))
    let large = Data(repeating: UInt8(ascii: "z"), count: 600 << 10)
    #expect(
      try await fixture.run(["pbcopy"], input: large).status == 0,
      "the copy itself does not depend on the history")
    #expect(try await fixture.run(["pbpaste"]).stdout == large)
    #expect(try await fixture.run(["pbcopy"], input: Data("small after".utf8)).status == 0)
    #expect(await Self.waitForEntries(fixture, 2))
    let log = try await fixture.stop()
    let store = try Self.reader(fixture)
    defer { try? store.close() }
    #expect(try store.list().compactMap(\.preview) == ["small after", "small before"])
    #expect(log.contains("the history could not record a copy"), "\(log.suffix(600))")
  }

  /// Two brokers (two displays) of one user share a data directory: the first writes the
  /// history, the second runs without one and says why; both serve their clipboards.
  @Test func twoBrokersOnOneHistoryHaveOneWriter() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let secondSocket = fixture.runtime.appendingPathComponent("second/ferry.sock").path
    let second = try PeerProcess(
      [try Tools.path("ferry"), "daemon", "--verbose"], display: nil,
      environment: fixture.environment.merging(["FERRY_SOCKET": secondSocket]) { $1 })
    defer { _ = second.kill() }
    let secondUp = try await DetachedThread.run {
      Deadline.wait(for: .seconds(10)) { second.errorSoFar.contains("listening on") }
    }
    #expect(secondUp, "\(second.errorSoFar)")
    #expect(second.errorSoFar.contains("history is off"), "\(second.errorSoFar)")
    #expect(try await fixture.run(["pbcopy"], input: Data("first broker".utf8)).status == 0)
    #expect(await Self.waitForEntries(fixture, 1), "the first broker records")
    _ = try await fixture.stop()
  }

  /// A blob removed behind the broker's back: the newest entry cannot be put back at start,
  /// which the log says, and the broker serves and records as before.
  @Test func aMissingBlobCostsOnlyItsEntry() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("older, inline".utf8)).status == 0)
    let large = Data(repeating: UInt8(ascii: "b"), count: 300 << 10)
    #expect(try await fixture.run(["pbcopy"], input: large).status == 0)
    #expect(await Self.waitForEntries(fixture, 2))
    _ = try await fixture.stop()
    let blobs = Self.dataDirectory(fixture).appendingPathComponent(HistoryStore.blobsName)
    for name in try FileManager.default.contentsOfDirectory(atPath: blobs.path) {
      try FileManager.default.removeItem(at: blobs.appendingPathComponent(name))
    }
    try await fixture.startDaemon()
    #expect(try await fixture.run(["pbcopy"], input: Data("new copy".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "new copy")
    #expect(await Self.waitForEntries(fixture, 3))
    let log = try await fixture.stop()
    #expect(
      log.contains("cannot be read"), "the restore names the missing blob: \(log.suffix(600))")
    let store = try Self.reader(fixture)
    defer { try? store.close() }
    let entries = try store.list()
    #expect(entries.count == 3)
    #expect(
      try store.contents(of: entries[2].id, at: 0).data() == Data("older, inline".utf8),
      "the rest works")
  }
}
