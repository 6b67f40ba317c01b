import FerrySystem
import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// Autosaving a pasteboard into a document: coalesced saves when the change count moves,
/// concealed items skipped, pending changes saved on stop.
@Suite struct DocumentAutosaveTests {
  /// Collects an autosaver's events as they come.
  final class EventRecorder: Sendable {
    private let events = TrackedMutex<[DocumentAutosaver.Event]>([])
    private let finished = TrackedMutex(false)

    init(_ autosaver: DocumentAutosaver) {
      let stream = autosaver.events
      Task { [self] in
        for await event in stream { events.withLock { $0.append(event) } }
        finished.withLock { $0 = true }
      }
    }

    var all: [DocumentAutosaver.Event] { events.withLock { $0 } }
    var isFinished: Bool { finished.withLock { $0 } }

    /// Waits until `count` events have come.
    func wait(for count: Int) async -> Bool {
      await Deadline.wait(for: .seconds(20)) { all.count >= count }
    }
  }

  static func text(_ string: String) -> PasteboardItem {
    PasteboardItem(representations: [.data(Data(string.utf8), type: .utf8PlainText)])
  }

  static func savedCount(_ event: DocumentAutosaver.Event?) -> Int? {
    if case .saved(let count) = event { return count }
    return nil
  }

  static func openedText(_ package: URL) async throws -> String {
    let document = try PasteboardDocument.open(at: package)
    return String(decoding: try await document.items[0].data(for: .utf8PlainText), as: UTF8.self)
  }

  @Test func aBurstOfWritesIsSavedOnceWithTheLastItems() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      let clock = ManualClock()
      let autosaver = DocumentAutosaver(
        pasteboard: pasteboard, url: package, delay: .milliseconds(250), clock: clock)
      let recorder = EventRecorder(autosaver)

      // Ten writes, each seen by the autosaver before the next, all within one delay.
      for index in 1...10 {
        pasteboard.write([Self.text("write \(index)")])
        try #require(
          await Deadline.wait(for: .seconds(10)) { autosaver.document.changeCount == index })
      }
      try #require(await Deadline.wait(for: .seconds(10)) { clock.sleeperCount == 1 })
      #expect(!FileManager.default.fileExists(atPath: package.path), "saved before the delay")
      clock.advance(by: .milliseconds(249))
      #expect(clock.sleeperCount == 1, "woke before the delay")

      clock.advance(by: .milliseconds(1))

      try #require(await recorder.wait(for: 1))
      // The first save already holds the last write: the burst was gathered into it.
      #expect(Self.savedCount(recorder.all[0]) == 10)
      #expect(try await Self.openedText(package) == "write 10")
      #expect(await autosaver.stop().map { "\($0)" } == nil, "a change was left unsaved")
      #expect(await Deadline.wait(for: .seconds(10)) { recorder.isFinished })
      #expect(recorder.all.count == 1)
    }
  }

  @Test func eachLaterChangeIsSavedAgain() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      let autosaver = DocumentAutosaver(
        pasteboard: pasteboard, url: package, delay: .milliseconds(20))
      let recorder = EventRecorder(autosaver)

      pasteboard.write([Self.text("first")])
      try #require(await recorder.wait(for: 1))
      #expect(try await Self.openedText(package) == "first")
      pasteboard.write([Self.text("second")])
      try #require(await recorder.wait(for: 2))

      #expect(try await Self.openedText(package) == "second")
      #expect(recorder.all.allSatisfy { Self.savedCount($0) != nil })
      #expect(!autosaver.document.hasUnsavedChanges)
      await autosaver.stop()
    }
  }

  @Test func aConcealedItemIsSkippedAndThePreviousDocumentStays() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      let autosaver = DocumentAutosaver(
        pasteboard: pasteboard, url: package, delay: .milliseconds(20))
      let recorder = EventRecorder(autosaver)
      pasteboard.write([Self.text("before the secret")])
      try #require(await recorder.wait(for: 1))
      let saved = try DocumentTesting.snapshot(of: directory)

      pasteboard.write([
        PasteboardItem(
          representations: [.data(Data("hunter2".utf8), type: .utf8PlainText)], options: .concealed)
      ])
      try #require(await recorder.wait(for: 2))

      guard case .skippedConcealed = recorder.all[1] else {
        Issue.record("expected a skipped save, got \(recorder.all[1])")
        return
      }
      #expect(try DocumentTesting.snapshot(of: directory) == saved)
      #expect(try await Self.openedText(package) == "before the secret")

      pasteboard.write([Self.text("after the secret")])
      try #require(await recorder.wait(for: 3))
      #expect(Self.savedCount(recorder.all[2]) != nil)
      #expect(try await Self.openedText(package) == "after the secret")
      await autosaver.stop()
    }
  }

  @Test func stopSavesAPendingChangeAtOnce() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      let autosaver = DocumentAutosaver(
        pasteboard: pasteboard, url: package, delay: .seconds(1), clock: ManualClock())

      pasteboard.write([Self.text("pending")])
      try #require(await Deadline.wait(for: .seconds(10)) { autosaver.document.changeCount == 1 })
      #expect(!FileManager.default.fileExists(atPath: package.path))

      let event = await autosaver.stop()

      #expect(Self.savedCount(event) == 1)
      #expect(try await Self.openedText(package) == "pending")
      // Stopped: later changes are no longer followed.
      pasteboard.write([Self.text("too late")])
      #expect(autosaver.document.changeCount == 1)
    }
  }

  @Test func whatThePasteboardHeldAtTheStartIsNotSaved() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      pasteboard.write([Self.text("restored")])
      let autosaver = DocumentAutosaver(pasteboard: pasteboard, url: package)

      #expect(autosaver.document.items.count == 1)
      #expect(await autosaver.stop().map { "\($0)" } == nil)
      #expect(!FileManager.default.fileExists(atPath: package.path))
    }
  }

  @Test func clearingThePasteboardSavesAnEmptyDocument() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      let autosaver = DocumentAutosaver(
        pasteboard: pasteboard, url: package, delay: .milliseconds(20))
      let recorder = EventRecorder(autosaver)
      pasteboard.write([Self.text("something")])
      try #require(await recorder.wait(for: 1))

      pasteboard.clearContents()
      try #require(await recorder.wait(for: 2))

      #expect(Self.savedCount(recorder.all[1]) != nil)
      #expect(try PasteboardDocument.open(at: package).items.isEmpty)
      await autosaver.stop()
    }
  }

  @Test func aFailedSaveIsReportedAndTheNextChangeSucceeds() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let parent = directory.appendingPathComponent("not-yet")
      let package = parent.appendingPathComponent("general.pasteboard")
      let pasteboard = isolatedPasteboard()
      let autosaver = DocumentAutosaver(
        pasteboard: pasteboard, url: package, delay: .milliseconds(20))
      let recorder = EventRecorder(autosaver)

      pasteboard.write([Self.text("lost")])
      try #require(await recorder.wait(for: 1))
      guard case .failed(_, let error) = recorder.all[0] else {
        Issue.record("expected a failure, got \(recorder.all[0])")
        return
      }
      #expect("\(error)".contains("not-yet"))

      try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
      pasteboard.write([Self.text("kept")])
      try #require(await recorder.wait(for: 2))
      #expect(Self.savedCount(recorder.all[1]) != nil)
      #expect(try await Self.openedText(package) == "kept")
      await autosaver.stop()
    }
  }
}
