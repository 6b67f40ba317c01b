import ClipboardHistory
import FerryTestSupport
import Foundation
import Testing

/// Scratch directories, items and the fixture process for the history tests.
enum HistoryTesting {
  /// A new empty directory; the caller removes it.
  static func makeScratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-history-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Runs `body` with a new empty directory, removed afterwards.
  static func withScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = try makeScratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }

  /// Runs `body` with a writer store on a new directory (its `history/` folder).
  static func withStore<T>(
    limits: HistoryLimits = HistoryLimits(), _ body: (HistoryStore, URL) throws -> T
  ) throws -> T {
    try withScratchDirectory { scratch in
      let directory = scratch.appendingPathComponent("history")
      let store = try HistoryStore(directory: directory, limits: limits)
      defer { try? store.close() }
      return try body(store, directory)
    }
  }

  /// A copy of plain text.
  static func text(
    _ string: String, pasteboard: String = "general", changeCount: Int = 1, source: String? = nil
  ) -> HistoryItem {
    HistoryItem(
      pasteboard: pasteboard, changeCount: changeCount, source: source,
      representations: [.data(Data(string.utf8), type: "public.utf8-plain-text", isText: true)])
  }

  /// `size` bytes that differ with `seed`.
  static func bytes(_ size: Int, seed: UInt8 = 1) -> Data {
    Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
  }

  /// The bytes `HistoryFixture` records for `label`: its UTF-8 repeated to `size`.
  static func fixturePayload(label: String, size: Int) -> Data {
    let pattern = Array(label.utf8)
    return Data((0..<size).map { pattern[$0 % pattern.count] })
  }

  /// The names in `directory`, sorted; none when it does not exist.
  static func names(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  /// The id of a recorded (not refused) copy.
  static func id(_ result: HistoryStore.RecordResult) throws -> HistoryEntry.ID {
    try #require(result.id, "the copy was refused: \(result)")
  }

  /// The fixture executable, built with the tests.
  static func fixture() throws -> String {
    try BuiltProduct.path("HistoryFixture")
  }

  /// Whether this machine lets an unprivileged process make a user and mount namespace
  /// (`unshare -rm`), where the tests mount a small tmpfs and a read-only bind mount.
  static let namespacesAvailable: Bool = {
    guard
      let result = try? PeerProcess.run(
        ["unshare", "-rm", "true"], display: nil, timeout: .seconds(20))
    else { return false }
    return result.status == 0
  }()

  /// Runs the fixture with `arguments` inside a new user and mount namespace, after the
  /// shell commands `setup` (which see the fixture's path as `$F`), on a thread of its own.
  static func runInNamespace(setup: String, fixture arguments: [String]) async throws
    -> PeerProcess.Result
  {
    let script = "set -e; \(setup); exec \"$F\" \"$@\""
    let fixture = try fixture()
    return try await DetachedThread.run {
      try PeerProcess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh"] + arguments, display: nil,
        timeout: .seconds(120),
        environment: ["F": fixture])
    }
  }

  /// Runs the fixture with `arguments` to its end, on a thread of its own.
  static func runFixture(_ arguments: [String]) async throws -> PeerProcess.Result {
    let fixture = try fixture()
    return try await DetachedThread.run {
      try PeerProcess.run([fixture] + arguments, display: nil, timeout: .seconds(60))
    }
  }
}
