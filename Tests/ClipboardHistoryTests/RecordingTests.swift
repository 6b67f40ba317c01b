import ClipboardHistory
import Foundation
import Pasteboard
import Testing

/// Recording copies: every representation kept in order, small ones inline, large ones in
/// shared content-addressed files, duplicates moved to the top, oversized copies refused.
extension HistoryTestsInOrder {
  @Suite struct RecordingTests {
    @Test func everyRepresentationComesBackInOrder() throws {
      try HistoryTesting.withStore { store, directory in
        let large = HistoryTesting.bytes(HistoryStore.inlineLimit + 1)
        let item = HistoryItem(
          pasteboard: "general", date: Date(timeIntervalSince1970: 1_700_000_000), changeCount: 42,
          source: "gedit",
          representations: [
            .data(Data("{\"name\":\"Juan\"}".utf8), type: "com.example.profile"),
            .data(large, type: "public.png"),
            .data(Data("Juan".utf8), type: "public.utf8-plain-text", isText: true),
          ])

        let id = try HistoryTesting.id(try store.record(item))

        let entry = try #require(try store.entry(id))
        #expect(entry.types == ["com.example.profile", "public.png", "public.utf8-plain-text"])
        #expect(entry.representations.map(\.storage) == [.inline, .file, .inline])
        #expect(entry.representations.map(\.isText) == [false, false, true])
        #expect(entry.pasteboard == "general")
        #expect(entry.changeCount == 42)
        #expect(entry.source == "gedit")
        #expect(entry.date == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(entry.totalSize == Int64(15 + large.count + 4))
        #expect(entry.preview == "Juan")
        #expect(!entry.isPinned)
        #expect(try store.contents(of: id, at: 0).data() == Data("{\"name\":\"Juan\"}".utf8))
        guard case .file(let blob) = try store.contents(of: id, at: 1) else {
          Issue.record("the large representation is not a file")
          return
        }
        #expect(blob.deletingLastPathComponent().lastPathComponent == "blobs")
        #expect(blob.lastPathComponent == entry.representations[1].sha256)
        #expect(try Data(contentsOf: blob) == large)
        #expect(
          try store.contents(of: id, type: "public.utf8-plain-text")?.data() == Data("Juan".utf8))
        #expect(try store.contents(of: id, type: "public.jpeg") == nil)
        #expect(
          HistoryTesting.names(in: directory.appendingPathComponent("blobs")) == [
            entry.representations[1].sha256
          ])
      }
    }

    @Test(arguments: [HistoryStore.inlineLimit, HistoryStore.inlineLimit + 1])
    func theInlineLimitDecidesWhereBytesGo(size: Int) throws {
      try HistoryTesting.withStore { store, _ in
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [.data(HistoryTesting.bytes(size), type: "public.data")])))
        let storage = try #require(try store.entry(id)).representations[0].storage
        #expect(storage == (size <= HistoryStore.inlineLimit ? .inline : .file))
        #expect(try store.contents(of: id, at: 0).data() == HistoryTesting.bytes(size))
      }
    }

    @Test func aLargeFileIsCopiedIntoABlob() throws {
      try HistoryTesting.withStore { store, directory in
        let source = directory.deletingLastPathComponent().appendingPathComponent("movie.mp4")
        let bytes = HistoryTesting.bytes(5 << 20, seed: 9)
        try bytes.write(to: source)
        let small = directory.deletingLastPathComponent().appendingPathComponent("note.txt")
        try Data("a note".utf8).write(to: small)

        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "drag", changeCount: 3,
              representations: [
                .file(source, type: "public.mpeg-4"),
                .file(small, type: "public.plain-text", isText: true),
              ])))
        try FileManager.default.removeItem(at: source)  // the store keeps its own copy

        let entry = try #require(try store.entry(id))
        #expect(entry.representations.map(\.size) == [Int64(bytes.count), 6])
        #expect(entry.representations.map(\.storage) == [.file, .inline])
        #expect(try store.contents(of: id, at: 0).data() == bytes)
        #expect(entry.preview == "a note")
        #expect(try store.search("note").map(\.id) == [id])
      }
    }

    @Test func representationsAreNamedByTheirSHA256() throws {
      try HistoryTesting.withStore { store, directory in
        let zeros = directory.deletingLastPathComponent().appendingPathComponent("zeros")
        try Data(count: 1 << 20).write(to: zeros)
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [
                .data(Data("abc".utf8), type: "public.utf8-plain-text"),
                .file(zeros, type: "public.data"),
              ])))
        // The digests `printf abc | sha256sum` and `head -c 1048576 /dev/zero | sha256sum` print.
        let digests = try #require(try store.entry(id)).representations.map(\.sha256)
        #expect(
          digests == [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58",
          ])
        #expect(HistoryTesting.names(in: directory.appendingPathComponent("blobs")) == [digests[1]])
      }
    }

    @Test func theSameBytesAreOneBlobSharedByEntries() throws {
      try HistoryTesting.withStore { store, directory in
        let image = HistoryTesting.bytes(200_000)
        let first = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [.data(image, type: "public.png")])))
        let second = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 2,
              representations: [
                .data(Data("caption".utf8), type: "public.utf8-plain-text"),
                .data(image, type: "public.png"),
              ])))

        #expect(first != second)
        let blobs = directory.appendingPathComponent("blobs")
        #expect(HistoryTesting.names(in: blobs).count == 1)
        // Deleting one entry keeps the blob the other still names; deleting both removes it.
        try store.delete([first])
        #expect(try store.contents(of: second, at: 1).data() == image)
        try store.delete([second])
        #expect(HistoryTesting.names(in: blobs).isEmpty)
      }
    }

    @Test func theSameContentAgainMovesItsEntryToTheTop() throws {
      try HistoryTesting.withStore { store, _ in
        let hello = try HistoryTesting.id(
          try store.record(HistoryTesting.text("hello", changeCount: 1, source: "xterm")))
        try store.setPinned(true, hello)
        let world = try HistoryTesting.id(
          try store.record(HistoryTesting.text("world", changeCount: 2)))

        let again = try store.record(HistoryTesting.text("hello", changeCount: 3))

        #expect(again == .deduplicated(hello))
        let entries = try store.list()
        #expect(entries.map(\.id) == [hello, world])
        #expect(entries[0].changeCount == 3)
        #expect(entries[0].source == "xterm", "an unknown source keeps the known one")
        #expect(entries[0].isPinned)
        #expect(try store.status().entries == 2)
      }
    }

    @Test func theSameContentOnAnotherPasteboardOrInAnotherOrderIsANewEntry() throws {
      try HistoryTesting.withStore { store, _ in
        let a = Data("a".utf8)
        let b = Data("b".utf8)
        let general = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 1,
            representations: [
              .data(a, type: "public.html"), .data(b, type: "public.utf8-plain-text"),
            ]))
        let primary = try store.record(
          HistoryItem(
            pasteboard: "primary", changeCount: 1,
            representations: [
              .data(a, type: "public.html"), .data(b, type: "public.utf8-plain-text"),
            ]))
        let swapped = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 2,
            representations: [
              .data(b, type: "public.utf8-plain-text"), .data(a, type: "public.html"),
            ]))

        #expect(Set([general.id, primary.id, swapped.id].compactMap { $0 }).count == 3)
        #expect(try store.status().entries == 3)
      }
    }

    @Test func aCopyOverThePerItemLimitIsRefusedAndChangesNothing() throws {
      try HistoryTesting.withStore(limits: HistoryLimits(maximumItemBytes: 100_000)) {
        store, directory in
        let kept = try HistoryTesting.id(try store.record(HistoryTesting.text("kept")))
        let source = directory.deletingLastPathComponent().appendingPathComponent("big")
        try HistoryTesting.bytes(150_000).write(to: source)

        let fromMemory = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 2,
            representations: [
              .data(HistoryTesting.bytes(60_000), type: "public.png"),
              .data(HistoryTesting.bytes(60_000, seed: 2), type: "public.tiff"),
            ]))
        let fromFile = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 3,
            representations: [.file(source, type: "public.png")]))

        #expect(fromMemory == .refused(.tooLarge(size: 120_000, limit: 100_000)))
        #expect(fromFile == .refused(.tooLarge(size: 150_000, limit: 100_000)))
        #expect(try store.list().map(\.id) == [kept])
        #expect(HistoryTesting.names(in: directory.appendingPathComponent("blobs")).isEmpty)
      }
    }

    @Test func aCopyWithNoRepresentationIsRefused() throws {
      try HistoryTesting.withStore { store, _ throws in
        #expect(
          try store.record(HistoryItem(pasteboard: "general", changeCount: 1, representations: []))
            == .refused(.empty))
        #expect(try store.list().isEmpty)
      }
    }

    @Test func anUnreadableFileIsATypedErrorAndRecordsNothing() throws {
      try HistoryTesting.withStore { store, directory throws in
        let missing = directory.appendingPathComponent("no-such-file")
        #expect(
          throws: HistoryError.unreadableSource(
            path: missing.path, reason: "No such file or directory")
        ) {
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [
                .data(Data("x".utf8), type: "public.utf8-plain-text"),
                .file(missing, type: "public.png"),
              ]))
        }
        #expect(try store.list().isEmpty)
      }
    }

    @Test(
      arguments: [
        ("hello", "hello"),
        ("\n\n  indented start\nsecond", "indented start\nsecond"),
        ("1\n2\n3\n4\n5\n6", "1\n2\n3\n4…"),
        (String(repeating: "x", count: 300), String(repeating: "x", count: 200) + "…"),
        ("   \n\t ", nil),
      ] as [(String, String?)])
    func thePreviewIsTheTextsBoundedStart(text: String, preview: String?) throws {
      try HistoryTesting.withStore { store, _ in
        let id = try HistoryTesting.id(try store.record(HistoryTesting.text(text)))
        #expect(try store.entry(id)?.preview == preview)
      }
    }

    @Test func anEntryWithoutTextHasNoPreview() throws {
      try HistoryTesting.withStore { store, _ in
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [.data(Data([1, 2]), type: "public.png")])))
        #expect(try store.entry(id)?.preview == nil)
      }
    }
  }
}
