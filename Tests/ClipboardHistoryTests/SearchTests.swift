import ClipboardHistory
import Foundation
import Testing

/// Full-text search over the text representations: word prefixes, ranked, newest first
/// among equals, user text taken literally.
extension HistoryTestsInOrder {
  @Suite struct SearchTests {
    @Test func everyWordMatchesAsAPrefixIgnoringCaseAndAccents() throws {
      try HistoryTesting.withStore { store, _ in
        let greeting = try HistoryTesting.id(
          try store.record(HistoryTesting.text("Héllo, World! café")))
        _ = try store.record(HistoryTesting.text("hello there"))

        #expect(try store.search("hel wor").map(\.id) == [greeting])
        #expect(try store.search("CAFE").map(\.id) == [greeting])
        #expect(try store.search("world hello").map(\.id) == [greeting])
        #expect(try store.search("orld").isEmpty, "a match starts a word")
      }
    }

    @Test func moreRelevantEntriesComeFirst() throws {
      try HistoryTesting.withStore { store, _ in
        let dense = try HistoryTesting.id(
          try store.record(HistoryTesting.text("swift swift swift")))
        let sparse = try HistoryTesting.id(
          try store.record(
            HistoryTesting.text("swift is one word among many others in this longer text")))

        #expect(try store.search("swift").map(\.id) == [dense, sparse])
      }
    }

    @Test func equalMatchesComeNewestFirst() throws {
      try HistoryTesting.withStore { store, _ in
        let ids = try ["alpha one", "alpha two", "alpha six"].map {
          try HistoryTesting.id(try store.record(HistoryTesting.text($0)))
        }
        #expect(try store.search("alpha").map(\.id) == ids.reversed())
        // A deduplicated copy moves to the top of the ties too.
        _ = try store.record(HistoryTesting.text("alpha one"))
        #expect(try store.search("alpha").map(\.id) == [ids[0], ids[2], ids[1]])
      }
    }

    @Test func onlyTextRepresentationsAreSearched() throws {
      try HistoryTesting.withStore { store, _ in
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [
                .data(Data("binaryword".utf8), type: "com.example.opaque"),
                .data(Data("<b>markup</b>".utf8), type: "public.html", isText: true),
              ])))
        #expect(try store.search("binaryword").isEmpty)
        #expect(try store.search("markup").map(\.id) == [id])
      }
    }

    @Test(arguments: [
      "\"", "AND", "OR NOT", "*", "a\"b", "(x", "NEAR(a b)", "col:x", "-", "^start",
    ])
    func searchSyntaxInTheTextIsTakenLiterally(query: String) throws {
      try HistoryTesting.withStore { store, _ in
        _ = try store.record(HistoryTesting.text("plain words only"))
        _ = try store.search(query)  // never an FTS5 syntax error
      }
    }

    @Test func punctuationOnlyFindsNothing() throws {
      try HistoryTesting.withStore { store, _ in
        _ = try store.record(HistoryTesting.text("a - b"))
        #expect(try store.search(" - ").isEmpty)
        #expect(try store.search("").isEmpty)
      }
    }

    @Test func wordsInsidePunctuatedTextAreFound() throws {
      try HistoryTesting.withStore { store, _ in
        let url = try HistoryTesting.id(
          try store.record(HistoryTesting.text("https://github.com/groue/GRDB.swift")))
        #expect(try store.search("github.com/groue").map(\.id) == [url])
        #expect(try store.search("grdb").map(\.id) == [url])
      }
    }

    @Test func searchKeepsToOnePasteboardWhenAsked() throws {
      try HistoryTesting.withStore { store, _ in
        let general = try HistoryTesting.id(try store.record(HistoryTesting.text("shared word")))
        let primary = try HistoryTesting.id(
          try store.record(HistoryTesting.text("shared word too", pasteboard: "primary")))
        #expect(try store.search("shared", pasteboard: "primary").map(\.id) == [primary])
        #expect(Set(try store.search("shared").map(\.id)) == [general, primary])
      }
    }

    @Test func onlyTheStartOfAHugeTextIsIndexed() throws {
      try HistoryTesting.withStore { store, directory in
        let huge = String(repeating: "filler ", count: 100_000) + "needle"
        let source = directory.deletingLastPathComponent().appendingPathComponent("huge.txt")
        try Data(huge.utf8).write(to: source)
        let id = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [.file(source, type: "public.utf8-plain-text", isText: true)])))
        #expect(try store.search("filler").map(\.id) == [id])
        #expect(try store.search("needle").isEmpty, "past the indexed start")
        #expect(
          try store.contents(of: id, at: 0).data() == Data(huge.utf8), "but every byte is kept")
      }
    }
  }
}
