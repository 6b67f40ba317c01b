import FerrySystem
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// Lazy representations that read from elsewhere (an X or Wayland owner) write to the item's
/// spool, never hold large bytes whole, leave no file when they fail, and stay at hand for a
/// clipboard manager once read (`itemAtHand()`).
@Suite struct SpoolingProviderTests {
  /// A spool parent of its own, removed after the test.
  final class SpoolParent: @unchecked Sendable {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "spooling-\(UUID().uuidString)")
    let converters = ConverterRegistry()

    init() throws {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      converters.spoolParent = directory.path
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Every regular file under the directory.
    var files: [String] {
      let enumerator = FileManager.default.enumerator(atPath: directory.path)
      return (enumerator?.allObjects as? [String] ?? []).filter { name in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(
          atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
          && !isDirectory.boolValue
      }
    }
  }

  /// A provider that writes `bytes` to the spool's file in chunks of 64 KiB, as a reader of
  /// an owner does, or returns them in memory without a spool.
  static func writing(_ bytes: Data, failingAfter failure: Int? = nil)
    -> @Sendable (
      ConversionSpool?
    ) async throws -> PasteboardPayload
  {
    { spool in
      guard let spool else { return .data(bytes) }
      return try await spool.payload { descriptor in
        var offset = 0
        while offset < bytes.count {
          if let failure, offset >= failure { throw PasteboardError.io("the owner went away") }
          let end = min(offset + (64 << 10), bytes.count)
          try bytes[offset..<end].withUnsafeBytes {
            try FileDescriptor(rawValue: descriptor).writeAll(from: $0)
          }
          offset = end
        }
      }
    }
  }

  static func bytes(mebibytes: Int) -> Data {
    Data((0..<(mebibytes << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
  }

  @Test func aLargeLazyReadGoesToAFileOfTheItemsSpool() async throws {
    let parent = try SpoolParent()
    let bytes = Self.bytes(mebibytes: 3)
    var item: PasteboardItem? = PasteboardItem(
      representations: [.lazy(.data, spooling: Self.writing(bytes))],
      converters: parent.converters)
    let payload = try await item!.payload(for: .data)
    guard case .file(let url) = payload else {
      Issue.record("expected a spool file, got \(payload)")
      return
    }
    #expect(url.path.hasPrefix(parent.directory.path + "/"))
    #expect(try Data(contentsOf: url) == bytes)
    item = nil
    #expect(!FileManager.default.fileExists(atPath: url.path), "the file goes with its item")
    #expect(parent.files.isEmpty)
  }

  @Test func aSmallLazyReadStaysInMemoryAndLeavesNoFile() async throws {
    let parent = try SpoolParent()
    let bytes = Data("a short text".utf8)
    let item = PasteboardItem(
      representations: [.lazy(.utf8PlainText, spooling: Self.writing(bytes))],
      converters: parent.converters)
    guard case .data(let data) = try await item.payload(for: .utf8PlainText) else {
      Issue.record("a read within the in-memory limit is kept in memory")
      return
    }
    #expect(data == bytes)
    #expect(parent.files.isEmpty)
  }

  @Test func aFailedLazyReadLeavesNoFile() async throws {
    let parent = try SpoolParent()
    let item = PasteboardItem(
      representations: [
        .lazy(.data, spooling: Self.writing(Self.bytes(mebibytes: 3), failingAfter: 2 << 20))
      ],
      converters: parent.converters)
    await #expect(throws: PasteboardError.self) { try await item.payload(for: .data) }
    #expect(parent.files.isEmpty, "nothing of the failed read is left: \(parent.files)")
    #expect(item.itemAtHand() == nil, "a failed read is not at hand")
  }

  @Test func aConcealedItemsLazyReadNeverTouchesTheDisk() async throws {
    let parent = try SpoolParent()
    let bytes = Self.bytes(mebibytes: 3)
    let item = PasteboardItem(
      representations: [.lazy(.utf8PlainText, spooling: Self.writing(bytes))],
      options: .concealed, converters: parent.converters)
    guard case .data(let data) = try await item.payload(for: .utf8PlainText) else {
      Issue.record("a concealed item's bytes stay in memory")
      return
    }
    #expect(data == bytes)
    #expect(parent.files.isEmpty)
  }

  @Test func whatIsAtHandIsWhatWasStoredOrReadInFull() async throws {
    let parent = try SpoolParent()
    let large = Self.bytes(mebibytes: 2)
    var item: PasteboardItem? = PasteboardItem(
      representations: [
        .lazy(.html, spooling: Self.writing(Data("<b>never read</b>".utf8))),
        .data(Data("stored".utf8), type: .utf8PlainText),
        .lazy(.data, spooling: Self.writing(large)),
      ],
      converters: parent.converters)
    #expect(item!.itemAtHand()?.storedTypes == [.utf8PlainText], "nothing read yet")
    guard case .file(let url) = try await item!.payload(for: .data) else {
      Issue.record("expected a spool file")
      return
    }
    let kept = try #require(item!.itemAtHand())
    #expect(kept !== item, "the read one is at hand; the unread one is not")
    #expect(kept.storedTypes == [.utf8PlainText, .data])
    #expect(kept.representations.allSatisfy { !$0.isLazy }, "nothing is asked of the owner again")
    item = nil
    #expect(FileManager.default.fileExists(atPath: url.path), "the kept copy keeps the file")
    #expect(try await kept.data(for: .data) == large)
    #expect(try await kept.data(for: .utf8PlainText) == Data("stored".utf8))
    #expect(kept.availableType(conformingTo: .html) == nil)
  }

  @Test func anItemWithNothingLazyIsAtHandItself() {
    let item = PasteboardItem(representations: [.data(Data("x".utf8), type: .utf8PlainText)])
    #expect(item.itemAtHand() === item)
    let unread = PasteboardItem(representations: [.lazy(.utf8PlainText) { .data(Data()) }])
    #expect(unread.itemAtHand() == nil)
    #expect(PasteboardItem(representations: []).itemAtHand() == nil, "nothing is nothing at hand")
  }

  @Test func aConditionalClearLeavesANewerCopyAlone() {
    let board = isolatedPasteboard()
    let first = board.write([
      PasteboardItem(representations: [.data(Data("a".utf8), type: .utf8PlainText)])
    ])
    let second = board.write([
      PasteboardItem(representations: [.data(Data("b".utf8), type: .utf8PlainText)])
    ])
    #expect(board.clearContents(ifChangeCountIs: first) == nil)
    #expect(board.items.count == 1)
    #expect(board.clearContents(ifChangeCountIs: second) == second + 1)
    #expect(board.items.isEmpty)
  }
}
