import ClipboardHistory
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A writer killed with SIGKILL in the middle of recording, at moments chosen at random:
/// the history opens, holds no half-written entry, and every blob its entries name exists.
extension HistoryTestsInOrder {
  @Suite struct HistoryCrashTests {
    /// When the fixture is killed.
    enum Moment: CaseIterable {
      /// After a random number (1 to 6) of recordings: anywhere in the next one.
      case afterSomeRecordings
      /// While a blob's staging file exists: between its creation and its rename.
      case duringABlobWrite
    }

    /// What a round saw of its fixture.
    struct Round: Sendable {
      var reachedTheMoment: Bool
      var killedBySignal: Bool
      var stderr: String
    }

    @Test func aWriterKilledAtRandomMomentsLeavesACompleteHistory() async throws {
      let fixture = try HistoryTesting.fixture()
      let scratch = try HistoryTesting.makeScratchDirectory()
      defer { try? FileManager.default.removeItem(at: scratch) }
      let directory = scratch.appendingPathComponent("history")
      for round in 0..<8 {
        let moment = Moment.allCases[round % Moment.allCases.count]
        let recordings = Int.random(in: 1...6)
        // The check of the round before closed its store in this process, but the kernel frees
        // the flock only when every copy of the descriptor is closed: a child another test
        // spawns at that moment holds one from its fork to its exec, and under load the next
        // fixture found the lock taken ("process <this one> already writes"). It starts again.
        var attempt: Result<Round, any Error>?
        _ = await Deadline.wait(for: .seconds(20)) {
          do {
            attempt = .success(
              try await DetachedThread.run {
                try Self.killFixture(
                  fixture, directory: directory, round: round, at: moment, after: recordings)
              })
          } catch {
            attempt = .failure(error)
          }
          guard case .success(let round)? = attempt else { return true }  // an error ends the wait
          return round.killedBySignal || !round.stderr.contains("already writes")
        }
        let seen = try #require(attempt, "round \(round): the fixture never ran").get()
        try #require(seen.reachedTheMoment, "round \(round): the fixture never reached \(moment)")
        try #require(
          seen.killedBySignal, "round \(round): the fixture ended by itself: \(seen.stderr)")
        try Self.expectComplete(directory, round: round)
      }
    }

    /// Starts the fixture recording into `directory`, waits (on the calling thread) for the
    /// moment, and kills it with SIGKILL.
    static func killFixture(
      _ fixture: String, directory: URL, round: Int, at moment: Moment, after recordings: Int
    ) throws -> Round {
      let blobs = directory.appendingPathComponent("blobs")
      let child = try PeerProcess(
        [fixture, "record-loop", directory.path, "r\(round)"], display: nil)
      let reached = Deadline.wait(for: .seconds(120)) {
        guard child.process.isRunning else { return true }
        switch moment {
        case .afterSomeRecordings:
          return child.outputSoFar.split(separator: "\n").count >= recordings
        case .duringABlobWrite:
          return HistoryTesting.names(in: blobs).contains { $0.hasPrefix(".staging-") }
        }
      }
      let result = child.kill(signal: SIGKILL)
      return Round(
        reachedTheMoment: reached,
        killedBySignal: {
          if case .signalled = child.process.ending { return true } else { return false }
        }(),
        stderr: result.stderrText)
    }

    /// Opens the history and checks every entry against what the fixture recorded for its label.
    static func expectComplete(_ directory: URL, round: Int) throws {
      let store = try HistoryStore(directory: directory)
      defer { try? store.close() }
      let entries = try store.list(limit: 1_000)
      var named = Set<String>()
      for entry in entries {
        let source = try #require(entry.source, "round \(round): entry \(entry.id) has no source")
        let label = String(source.dropFirst("fixture ".count))
        let n = try #require(label.split(separator: "-").last.flatMap { Int($0) })
        let size = (1 << 20) + (n % 7) * 150_000
        #expect(
          entry.types == ["public.utf8-plain-text", "application/octet-stream", "public.html"],
          "round \(round), \(label)")
        #expect(try store.contents(of: entry.id, at: 0).data() == Data("entry \(label)".utf8))
        #expect(
          try store.contents(of: entry.id, at: 1).data()
            == HistoryTesting.fixturePayload(label: label, size: size), "round \(round), \(label)")
        #expect(
          try store.contents(of: entry.id, at: 2).data() == Data("<p>entry \(label)</p>".utf8))
        #expect(try store.search("entry \(label)").contains { $0.id == entry.id })
        named.formUnion(entry.representations.filter { $0.storage == .file }.map(\.sha256))
      }
      let status = try store.status()
      #expect(status.entries == entries.count)
      #expect(status.totalBytes == entries.reduce(0) { $0 + $1.totalSize })
      #expect(
        Set(HistoryTesting.names(in: directory.appendingPathComponent("blobs"))) == named,
        "round \(round): the blobs are exactly those the entries name")
    }
  }
}
