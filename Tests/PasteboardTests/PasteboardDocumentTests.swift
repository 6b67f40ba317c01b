import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// Saving and opening documents: the package layout, a byte-for-byte round trip, lazy
/// loading, change counts, and the saves that must not happen.
@Suite struct PasteboardDocumentTests {
  /// A type no declaration names: a `dyn.` type with a MIME tag and no filename extension.
  static let undeclared = UTType(mimeType: "application/x-ferry-document-test")!

  struct Failure: Error {}

  /// Two items covering data, lazy and file representations, options, an expiration date
  /// and a type with no filename extension.
  static func sampleItems(fileAt file: URL) -> [PasteboardItem] {
    let expiry = Date(timeIntervalSince1970: 1_900_000_000.125)
    return [
      PasteboardItem(
        representations: [
          .data(Data(#"{"name":"Juan Chavez"}"#.utf8), type: .json),
          .data(Data("Juan Chavez".utf8), type: .utf8PlainText),
        ],
        options: [.transient, .currentHostOnly], expirationDate: expiry),
      PasteboardItem(representations: [
        .lazy(.png) { .data(Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255])) },
        .file(file, type: .pdf),
        .data(Data(), type: undeclared),
      ]),
    ]
  }

  @Test func roundTripKeepsItemsOrderTypesOptionsAndBytes() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let source = directory.appendingPathComponent("source.pdf")
      try Data("%PDF-1.7 not really\n".utf8).write(to: source)
      let package = directory.appendingPathComponent("clip.pasteboard")
      let saved = Self.sampleItems(fileAt: source)

      try await PasteboardDocument(items: saved).save(to: package)
      let opened = try PasteboardDocument.open(at: package).items

      try #require(opened.count == saved.count)
      for (original, copy) in zip(saved, opened) {
        #expect(copy.storedTypes == original.storedTypes)
        #expect(copy.options == original.options)
        for type in original.storedTypes {
          let expected = try await original.data(for: type)
          #expect(try await copy.data(for: type) == expected, "\(type.identifier)")
        }
      }
      let expiry = try #require(opened[0].expirationDate)
      #expect(abs(expiry.timeIntervalSince1970 - 1_900_000_000.125) < 0.001)
      #expect(opened[1].expirationDate == nil)
    }
  }

  @Test func packageHoldsAManifestAndOneFileNamedPerRepresentation() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let source = directory.appendingPathComponent("source.pdf")
      try Data("pdf".utf8).write(to: source)
      let package = directory.appendingPathComponent("clip.pasteboard")

      try await PasteboardDocument(items: Self.sampleItems(fileAt: source)).save(to: package)

      #expect(
        DocumentTesting.names(in: package) == [
          "0-0.json", "0-1.txt", "1-0.png", "1-1.pdf", "1-2.data", "manifest.json",
        ])
      let manifest = try DocumentTesting.manifestObject(of: package)
      #expect(manifest["version"] as? Int == 1)
      let items = try #require(manifest["items"] as? [[String: Any]])
      #expect(items[0]["options"] as? [String] == ["transient", "currentHostOnly"])
      let representations = try #require(items[1]["representations"] as? [[String: Any]])
      #expect(
        representations.map { $0["type"] as? String } == [
          "public.png", "com.adobe.pdf", Self.undeclared.identifier,
        ])
      #expect(representations.map { $0["byteCount"] as? Int } == [8, 3, 0])
      // Nothing but the document itself is left next to it.
      #expect(DocumentTesting.names(in: directory) == ["clip.pasteboard", "source.pdf"])
    }
  }

  @Test func openedRepresentationsAreFilesInsideThePackage() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let item = PasteboardItem(representations: [.data(Data("hello".utf8), type: .utf8PlainText)])
      try await PasteboardDocument(items: [item]).save(to: package)

      let opened = try PasteboardDocument.open(at: package)

      let payload = try await opened.items[0].payload(for: .utf8PlainText)
      guard case .file(let url) = payload else {
        Issue.record("expected a file payload, got \(payload)")
        return
      }
      #expect(
        url.deletingLastPathComponent().standardizedFileURL.path == package.standardizedFileURL.path
      )
      #expect(url.lastPathComponent == "0-0.txt")
    }
  }

  @Test func savingReplacesThePreviousDocument() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let first = PasteboardItem(representations: [
        .data(Data("first".utf8), type: .utf8PlainText), .data(Data([1]), type: .png),
      ])
      let second = PasteboardItem(representations: [
        .data(Data("second".utf8), type: .utf8PlainText)
      ])
      try await PasteboardDocument(items: [first]).save(to: package)

      try await PasteboardDocument(items: [second]).save(to: package)

      let opened = try PasteboardDocument.open(at: package)
      #expect(opened.items.count == 1)
      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("second".utf8))
      #expect(DocumentTesting.names(in: package) == ["0-0.txt", "manifest.json"])
      #expect(DocumentTesting.names(in: directory) == ["clip.pasteboard"])
    }
  }

  @Test func resavingOpenedItemsToTheSamePlaceKeepsTheirBytes() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let item = PasteboardItem(representations: [.data(Data("kept".utf8), type: .utf8PlainText)])
      try await PasteboardDocument(items: [item]).save(to: package)

      let opened = try PasteboardDocument.open(at: package)
      try await opened.save(to: package)

      let again = try PasteboardDocument.open(at: package)
      #expect(try await again.items[0].data(for: .utf8PlainText) == Data("kept".utf8))
    }
  }

  @Test func anEmptyDocumentRoundTrips() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("empty.pasteboard")
      try await PasteboardDocument(items: []).save(to: package)
      #expect(try PasteboardDocument.open(at: package).items.isEmpty)
    }
  }

  @Test func aConcealedItemIsRefusedAndTheDocumentUntouched() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let before = PasteboardItem(representations: [
        .data(Data("public".utf8), type: .utf8PlainText)
      ])
      try await PasteboardDocument(items: [before]).save(to: package)
      let snapshot = try DocumentTesting.snapshot(of: directory)
      let secret = PasteboardItem(
        representations: [.data(Data("hunter2".utf8), type: .utf8PlainText)], options: .concealed)

      await #expect {
        try await PasteboardDocument(items: [before, secret]).save(to: package)
      } throws: { error in
        guard case PasteboardError.concealed = error else { return false }
        return true
      }

      #expect(try DocumentTesting.snapshot(of: directory) == snapshot)
    }
  }

  @Test func anItemMarkedConcealedByItsTypesIsRefused() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let secret = PasteboardItem(representations: [
        .data(Data("hunter2".utf8), type: .utf8PlainText),
        .data(Data(), type: .concealedMarker),
      ])

      await #expect(throws: PasteboardError.self) {
        try await PasteboardDocument(items: [secret]).save(to: package)
      }
      #expect(DocumentTesting.names(in: directory).isEmpty)
    }
  }

  @Test func aFailingProviderLeavesThePreviousDocumentAndNoStagingCopy() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let before = PasteboardItem(representations: [
        .data(Data("before".utf8), type: .utf8PlainText)
      ])
      try await PasteboardDocument(items: [before]).save(to: package)
      let snapshot = try DocumentTesting.snapshot(of: directory)
      let failing = PasteboardItem(representations: [
        .data(Data("partial".utf8), type: .utf8PlainText),
        .lazy(.png) { throw Failure() },
      ])

      await #expect(throws: PasteboardError.self) {
        try await PasteboardDocument(items: [failing]).save(to: package)
      }

      #expect(try DocumentTesting.snapshot(of: directory) == snapshot)
      let opened = try PasteboardDocument.open(at: package)
      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("before".utf8))
    }
  }

  @Test func aDirectoryThatIsNotADocumentIsNeverReplaced() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let target = directory.appendingPathComponent("photos")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
      try Data("precious".utf8).write(to: target.appendingPathComponent("cat.jpg"))
      let file = directory.appendingPathComponent("notes.txt")
      try Data("notes".utf8).write(to: file)
      let snapshot = try DocumentTesting.snapshot(of: directory)
      let item = PasteboardItem(representations: [.data(Data("x".utf8), type: .utf8PlainText)])

      for target in [target, file] {
        await #expect {
          try await PasteboardDocument(items: [item]).save(to: target)
        } throws: { error in
          (error as? PasteboardError)?.invalidDocumentReason?.contains("not replacing it") == true
        }
      }
      #expect(try DocumentTesting.snapshot(of: directory) == snapshot)
    }
  }

  @Test func changeCountMovesWithEachReplacementAndSavingCatchesUp() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let document = PasteboardDocument()
      #expect(document.changeCount == 0)
      #expect(document.hasUnsavedChanges)

      let item = PasteboardItem(representations: [.data(Data("a".utf8), type: .utf8PlainText)])
      #expect(document.replaceItems(with: [item]) == 1)
      #expect(document.replaceItems(with: [item, item]) == 2)
      #expect(document.changeCount == 2)

      try await document.save(to: package)
      #expect(document.lastSavedChangeCount == 2)
      #expect(!document.hasUnsavedChanges)
      #expect(document.fileURL == package)

      document.replaceItems(with: [])
      #expect(document.hasUnsavedChanges)

      let opened = try PasteboardDocument.open(at: package)
      #expect(opened.changeCount == 0)
      #expect(!opened.hasUnsavedChanges)
      #expect(opened.items.count == 2)
    }
  }

  @Test func savesRunInTheOrderTheyWereAskedFor() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let document = PasteboardDocument()
      // The first save's provider is slow; the second save, asked for later, must land last.
      // The sleep stands for that slowness (it gives saves run out of order the time to
      // overtake); saves in order pass however the two are scheduled.
      let slow = PasteboardItem(representations: [
        .lazy(.utf8PlainText) {
          try await Task.sleep(for: .milliseconds(200))
          return .data(Data("old".utf8))
        }
      ])
      document.replaceItems(with: [slow])
      let first = Task { try await document.save(to: package) }
      // Wait for the first save to be queued (its staging directory appears).
      #expect(
        await Deadline.wait(for: .seconds(10)) {
          DocumentTesting.names(in: directory).contains { $0.hasPrefix(".clip.pasteboard.tmp-") }
        })
      document.replaceItems(with: [
        PasteboardItem(representations: [.data(Data("new".utf8), type: .utf8PlainText)])
      ])
      try await document.save(to: package)
      try await first.value

      let opened = try PasteboardDocument.open(at: package)
      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("new".utf8))
      #expect(document.lastSavedChangeCount == 2)
    }
  }
}
