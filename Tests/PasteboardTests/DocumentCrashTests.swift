import FerrySystem
import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

#if canImport(Glibc)
  import Glibc
#endif

/// Crashes during a save: a process killed with SIGKILL in the middle of saving, and the
/// states the fallback swap can leave. The previous document must stay complete and open.
@Suite struct DocumentCrashTests {
  /// The size of the fixture's large representation: large enough that copying it takes a
  /// moment the test can land in.
  static let payloadSize = 64 << 20

  /// A process id that no process has: above Linux's largest `pid_max`.
  static let goneProcess: Int32 = Int32.max - 1

  /// When the child is killed, by what its staging directory holds.
  enum Moment: String, CaseIterable, Sendable {
    /// As soon as the staging directory exists.
    case stagingCreated
    /// Once half of the large file has been copied into it.
    case halfCopied
    /// Once the large file is fully copied, while the next representation is produced.
    case largeFileCopied

    func isReached(stagedBytes: Int) -> Bool {
      switch self {
      case .stagingCreated: return true
      case .halfCopied: return stagedBytes >= DocumentCrashTests.payloadSize / 2
      case .largeFileCopied: return stagedBytes >= DocumentCrashTests.payloadSize
      }
    }
  }

  // MARK: SIGKILL in the middle of a save

  @Test(arguments: Moment.allCases)
  func aSaveKilledMidwayLeavesThePreviousDocument(_ moment: Moment) async throws {
    let fixture = try Self.fixtureExecutable()
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let payload = directory.appendingPathComponent("payload.mp4")
      try DocumentTesting.writeLargeFile(at: payload, size: Self.payloadSize)
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      let original = try DocumentTesting.snapshot(of: package)

      let child = try FixtureProcess(fixture, arguments: [package.path, payload.path, "stall"])
      defer { child.killAndReap() }
      try #require(await child.waitForLine("saving"), "the fixture never said it was saving")
      let stagingPrefix = ".clip.pasteboard.tmp-\(child.pid)-"
      let staging = { () -> URL? in
        DocumentTesting.names(in: directory).first { $0.hasPrefix(stagingPrefix) }
          .map { directory.appendingPathComponent($0) }
      }
      let reached = await Deadline.wait(for: .seconds(60)) {
        guard let staging = staging() else { return false }
        return moment.isReached(stagedBytes: Self.bytes(in: staging))
      }
      try #require(reached, "the fixture's save never reached \(moment)")

      child.killAndReap()

      #expect(child.wasKilledBySIGKILL, "the fixture ended by itself, not by SIGKILL")
      // Killed in the middle: its staging copy is still there, and ignored.
      let leftover = try #require(
        staging(), "no staging directory was left: the kill missed the save")
      #expect(try DocumentTesting.snapshot(of: package) == original)
      let opened = try PasteboardDocument.open(at: package)
      try await Self.expectOriginal(opened.items)

      // The next save removes what the killed one left.
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      #expect(!FileManager.default.fileExists(atPath: leftover.path))
      #expect(DocumentTesting.names(in: directory) == ["clip.pasteboard", "payload.mp4"])
    }
  }

  /// The control of the test above: left alone, the fixture's save replaces the document, so
  /// a kill that came too late would be seen.
  @Test func theFixtureLeftAloneReplacesTheDocument() async throws {
    let fixture = try Self.fixtureExecutable()
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let payload = directory.appendingPathComponent("payload.mp4")
      try DocumentTesting.writeLargeFile(at: payload, size: 4 << 20)
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)

      let child = try FixtureProcess(fixture, arguments: [package.path, payload.path, "complete"])
      defer { child.killAndReap() }
      try #require(await child.waitForExit(timeout: .seconds(60)))

      #expect(child.exitStatus == 0)
      let opened = try PasteboardDocument.open(at: package)
      #expect(opened.items[0].storedTypes == [.mpeg4Movie, .utf8PlainText])
      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("replacement".utf8))
      guard case .file(let copy) = try await opened.items[0].payload(for: .mpeg4Movie) else {
        Issue.record("the movie is not a file")
        return
      }
      #expect(try DocumentTesting.filesAreEqual(copy, payload))
    }
  }

  // MARK: The fallback swap, without RENAME_EXCHANGE

  @Test func theFallbackSwapReplacesTheDocument() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      let staging = try await Self.stagedDocument(for: package, text: "new", pid: getpid())

      try AtomicDirectoryReplace.commit(staging, to: package, allowExchange: false)

      let opened = try PasteboardDocument.open(at: package)
      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("new".utf8))
      #expect(DocumentTesting.names(in: directory) == ["clip.pasteboard"])
    }
  }

  @Test func aCrashBetweenTheFallbackRenamesIsRecoveredByOpen() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      let original = try DocumentTesting.snapshot(of: package)
      // The state after the first rename: the document aside, the new one staged, no target.
      let staging = try await Self.stagedDocument(for: package, text: "new", pid: Self.goneProcess)
      let aside = AtomicDirectoryReplace.siblingURL(
        of: package, kind: .aside, pid: Self.goneProcess)
      try FileManager.default.moveItem(at: package, to: aside)

      let opened = try PasteboardDocument.open(at: package)

      try await Self.expectOriginal(opened.items)
      #expect(try DocumentTesting.snapshot(of: package) == original)
      #expect(!FileManager.default.fileExists(atPath: aside.path))
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      #expect(!FileManager.default.fileExists(atPath: staging.path))
    }
  }

  @Test func aCrashAfterTheFallbackRenamesOpensTheNewDocument() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      // The state after the second rename: the new document in place, the old one aside.
      let staging = try await Self.stagedDocument(for: package, text: "new", pid: Self.goneProcess)
      let aside = AtomicDirectoryReplace.siblingURL(
        of: package, kind: .aside, pid: Self.goneProcess)
      try FileManager.default.moveItem(at: package, to: aside)
      try FileManager.default.moveItem(at: staging, to: package)

      let opened = try PasteboardDocument.open(at: package)

      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("new".utf8))
      #expect(FileManager.default.fileExists(atPath: aside.path))
      try await opened.save(to: package)
      #expect(DocumentTesting.names(in: directory) == ["clip.pasteboard"])
    }
  }

  @Test func anAsideCopyOfARunningProcessIsLeftToIt() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await PasteboardDocument(items: Self.originalItems()).save(to: package)
      // A save by another live process, between its renames: not ours to undo.
      let aside = AtomicDirectoryReplace.siblingURL(of: package, kind: .aside, pid: getppid())
      try FileManager.default.moveItem(at: package, to: aside)

      #expect(throws: PasteboardError.self) { try PasteboardDocument.open(at: package) }
      #expect(FileManager.default.fileExists(atPath: aside.path))
      #expect(!FileManager.default.fileExists(atPath: package.path))
    }
  }

  // MARK: Helpers

  /// The first document's items: two representations of known bytes.
  static func originalItems() -> [PasteboardItem] {
    [
      PasteboardItem(representations: [
        .data(Data("original text".utf8), type: .utf8PlainText),
        .data(Data((0...255).map { UInt8($0) }), type: .png),
      ])
    ]
  }

  static func expectOriginal(_ items: [PasteboardItem]) async throws {
    try #require(items.count == 1)
    #expect(items[0].storedTypes == [.utf8PlainText, .png])
    #expect(try await items[0].data(for: .utf8PlainText) == Data("original text".utf8))
    #expect(try await items[0].data(for: .png) == Data((0...255).map { UInt8($0) }))
  }

  /// A complete document holding `text`, saved elsewhere and moved to a staging name of
  /// `package` carrying `pid`.
  static func stagedDocument(for package: URL, text: String, pid: Int32) async throws -> URL {
    let elsewhere = package.deletingLastPathComponent().appendingPathComponent("elsewhere")
    let item = PasteboardItem(representations: [.data(Data(text.utf8), type: .utf8PlainText)])
    try await PasteboardDocument(items: [item]).save(to: elsewhere)
    let staging = AtomicDirectoryReplace.siblingURL(of: package, kind: .staging, pid: pid)
    try FileManager.default.moveItem(at: elsewhere, to: staging)
    return staging
  }

  /// The bytes of the regular files directly in `directory`.
  static func bytes(in directory: URL) -> Int {
    DocumentTesting.names(in: directory).reduce(0) { total, name in
      let path = directory.appendingPathComponent(name).path
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      return total + ((attributes?[.size] as? Int) ?? 0)
    }
  }

  /// The fixture executable, built with the tests: next to the test binary, else in the
  /// package's build directories.
  static func fixtureExecutable(filePath: String = #filePath) throws -> URL {
    let name = "PasteboardSaveFixture"
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    if let executable = Bundle.main.executableURL {
      candidates.append(executable.deletingLastPathComponent())
    }
    var root = URL(fileURLWithPath: filePath)
    while root.path != "/"
      && !FileManager.default.fileExists(
        atPath: root.appendingPathComponent("Package.swift").path)
    {
      root.deleteLastPathComponent()
    }
    for scratch in DocumentTesting.names(in: root) where scratch.hasPrefix(".build") {
      for configuration in ["debug", "release"] {
        candidates.append(
          root.appendingPathComponent(scratch).appendingPathComponent(configuration))
      }
    }
    let found = candidates.map { $0.appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "\(name) was not built; looked in \(candidates.map(\.path))")
  }
}

/// A running fixture whose standard output is collected line by line.
final class FixtureProcess: Sendable {
  private let process: TestChild
  /// Held for the fixture's life: the read end closes with it.
  private let pipe = Pipe()
  private final class Output: Sendable {
    let text = TrackedMutex("")
  }

  private let output = Output()

  init(_ executable: URL, arguments: [String]) throws {
    // Ended with the test process however it ends.
    process = try TestChild.start(
      path: executable.path, arguments: arguments,
      standardOutput: .descriptor(pipe.fileHandleForWriting.fileDescriptor))
    try? pipe.fileHandleForWriting.close()
    pipe.fileHandleForReading.readabilityHandler = { [output] handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
      } else {
        output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
      }
    }
  }

  var pid: Int32 { process.processIdentifier }

  /// Waits until the fixture prints `line`.
  func waitForLine(_ line: String, timeout: Duration = .seconds(30)) async -> Bool {
    await Deadline.wait(for: timeout) {
      output.text.withLock { $0.split(separator: "\n").contains { $0 == line } }
    }
  }

  /// Waits until the fixture exits.
  func waitForExit(timeout: Duration) async -> Bool {
    await Deadline.wait(for: timeout) { !process.isRunning }
  }

  /// Kills the fixture with SIGKILL, if it still runs, and reaps it.
  func killAndReap() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  var wasKilledBySIGKILL: Bool {
    process.ending == .signalled(SIGKILL)
  }

  var exitStatus: Int32? {
    if case .exited(let status)? = process.ending { status } else { nil }
  }
}
