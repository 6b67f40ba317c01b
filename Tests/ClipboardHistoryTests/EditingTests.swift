import ClipboardHistory
import Foundation
import Testing

/// Listing, pinning, deleting and clearing.
extension HistoryTestsInOrder {
  @Suite struct EditingTests {
    @Test func listPagesNewestFirstAndFiltersByPasteboard() throws {
      try HistoryTesting.withStore { store, _ in
        var ids: [HistoryEntry.ID] = []
        for n in 1...5 {
          ids.append(
            try HistoryTesting.id(try store.record(HistoryTesting.text("g\(n)", changeCount: n))))
        }
        let primary = try HistoryTesting.id(
          try store.record(HistoryTesting.text("p", pasteboard: "primary")))

        #expect(try store.list(limit: 3).map(\.id) == [primary, ids[4], ids[3]])
        #expect(try store.list(limit: 3, offset: 3).map(\.id) == [ids[2], ids[1], ids[0]])
        #expect(try store.list(pasteboard: "general").map(\.id) == ids.reversed())
        #expect(try store.newest(pasteboard: "general")?.id == ids[4])
        #expect(try store.newest(pasteboard: "primary")?.id == primary)
        #expect(try store.newest(pasteboard: "drag") == nil)
      }
    }

    @Test func pinningIsKeptAndReported() throws {
      try HistoryTesting.withStore { store, _ in
        let id = try HistoryTesting.id(try store.record(HistoryTesting.text("pin me")))
        try store.setPinned(true, id)
        #expect(try store.entry(id)?.isPinned == true)
        #expect(try store.status().pinnedEntries == 1)
        try store.setPinned(false, id)
        #expect(try store.entry(id)?.isPinned == false)
        #expect(throws: HistoryError.noSuchEntry(HistoryEntry.ID(rawValue: 999))) {
          try store.setPinned(true, HistoryEntry.ID(rawValue: 999))
        }
      }
    }

    @Test func deleteRemovesTheEntriesNamedEvenPinned() throws {
      try HistoryTesting.withStore { store, _ in
        let ids = try (1...3).map {
          try HistoryTesting.id(try store.record(HistoryTesting.text("entry \($0)")))
        }
        try store.setPinned(true, ids[0])

        #expect(try store.delete([ids[0], ids[1], HistoryEntry.ID(rawValue: 999)]) == 2)

        #expect(try store.list().map(\.id) == [ids[2]])
        #expect(try store.entry(ids[0]) == nil)
        #expect(try store.search("entry").map(\.id) == [ids[2]])
        #expect(throws: HistoryError.noSuchEntry(ids[0])) { try store.contents(of: ids[0], at: 0) }
        #expect(try store.delete([]) == 0)
      }
    }

    @Test func idsAreNeverReused() throws {
      try HistoryTesting.withStore { store, _ in
        let first = try HistoryTesting.id(try store.record(HistoryTesting.text("one")))
        try store.delete([first])
        let second = try HistoryTesting.id(try store.record(HistoryTesting.text("two")))
        #expect(second > first)
      }
    }

    @Test func clearKeepsPinnedEntriesUnlessAsked() throws {
      try HistoryTesting.withStore { store, directory in
        let pinned = try HistoryTesting.id(try store.record(HistoryTesting.text("keep")))
        try store.setPinned(true, pinned)
        _ = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 2,
            representations: [.data(HistoryTesting.bytes(100_000), type: "public.png")]))
        _ = try store.record(HistoryTesting.text("drop"))

        #expect(try store.clear() == 2)
        #expect(try store.list().map(\.id) == [pinned])
        #expect(HistoryTesting.names(in: directory.appendingPathComponent("blobs")).isEmpty)

        #expect(try store.clear(includingPinned: true) == 1)
        #expect(try store.list().isEmpty)
        #expect(try store.status().totalBytes == 0)
      }
    }

    @Test func aMissingRepresentationIndexIsATypedError() throws {
      try HistoryTesting.withStore { store, _ in
        let id = try HistoryTesting.id(try store.record(HistoryTesting.text("one")))
        #expect(throws: HistoryError.noSuchRepresentation(id, index: 1)) {
          try store.contents(of: id, at: 1)
        }
      }
    }

    @Test func statusCountsEntriesAndBytes() throws {
      try HistoryTesting.withStore { store, _ in
        _ = try store.record(HistoryTesting.text("12345"))
        _ = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 2,
            representations: [.data(HistoryTesting.bytes(70_000), type: "public.png")]))
        let status = try store.status()
        #expect(status.entries == 2)
        #expect(status.totalBytes == 70_005)
        #expect(status.pinnedEntries == 0)
        #expect(status.databaseBytes > 0)
        #expect(status.access == .writer)
      }
    }
  }
}
