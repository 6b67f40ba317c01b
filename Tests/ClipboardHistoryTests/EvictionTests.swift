import ClipboardHistory
import Foundation
import Testing

/// Limits: the oldest unpinned entries go, in the recording's own transaction, with the
/// blobs only they named.
extension HistoryTestsInOrder {
  @Suite struct EvictionTests {
    @Test func pastTheEntryLimitTheOldestUnpinnedEntryIsEvicted() throws {
      try HistoryTesting.withStore(limits: HistoryLimits(maximumEntries: 3)) { store, _ in
        let ids = try (1...3).map {
          try HistoryTesting.id(try store.record(HistoryTesting.text("copy \($0)")))
        }
        try store.setPinned(true, ids[0])

        let fourth = try store.record(HistoryTesting.text("copy 4"))

        guard case .recorded(let id, let evicted) = fourth else {
          Issue.record("not recorded: \(fourth)")
          return
        }
        #expect(evicted == [ids[1]], "the oldest unpinned entry, not the pinned one")
        #expect(try store.list().map(\.id) == [id, ids[2], ids[0]])
        #expect(try store.search("copy").count == 3, "the evicted entry left the search index")
        #expect(try store.status().entries == 3)
      }
    }

    @Test func pastTheByteLimitAsManyEntriesGoAsNeeded() throws {
      try HistoryTesting.withStore(limits: HistoryLimits(maximumTotalBytes: 300_000)) {
        store, directory in
        let ids = try (1...3).map { seed in
          try HistoryTesting.id(
            try store.record(
              HistoryItem(
                pasteboard: "general", changeCount: seed,
                representations: [
                  .data(HistoryTesting.bytes(100_000, seed: UInt8(seed)), type: "public.png")
                ])))
        }

        let large = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 4,
            representations: [.data(HistoryTesting.bytes(250_000, seed: 4), type: "public.png")]))

        guard case .recorded(let id, let evicted) = large else {
          Issue.record("not recorded: \(large)")
          return
        }
        #expect(evicted == [ids[0], ids[1], ids[2]])
        #expect(try store.list().map(\.id) == [id])
        #expect(try store.status().totalBytes == 250_000)
        #expect(
          HistoryTesting.names(in: directory.appendingPathComponent("blobs")).count == 1,
          "evicted blobs removed")
      }
    }

    @Test func aBlobStillNamedByAKeptEntrySurvivesEviction() throws {
      try HistoryTesting.withStore(limits: HistoryLimits(maximumEntries: 1)) { store, _ in
        let image = HistoryTesting.bytes(100_000)
        _ = try store.record(
          HistoryItem(
            pasteboard: "general", changeCount: 1,
            representations: [.data(image, type: "public.png")]))

        let second = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 2,
              representations: [
                .data(Data("same picture".utf8), type: "public.utf8-plain-text"),
                .data(image, type: "public.png"),
              ])))

        #expect(try store.list().map(\.id) == [second])
        #expect(try store.contents(of: second, at: 1).data() == image)
      }
    }

    @Test func whenOnlyPinnedEntriesAreLeftTheNewCopyIsStillKept() throws {
      try HistoryTesting.withStore(limits: HistoryLimits(maximumEntries: 2)) { store, _ in
        let pinned = try (1...2).map {
          try HistoryTesting.id(try store.record(HistoryTesting.text("pinned \($0)")))
        }
        for id in pinned { try store.setPinned(true, id) }

        let result = try store.record(HistoryTesting.text("new"))

        #expect(result.id != nil)
        guard case .recorded(_, let evicted) = result else { return }
        #expect(evicted.isEmpty)
        #expect(try store.status().entries == 3)
      }
    }

    @Test func aDeduplicatedCopyEvictsNothing() throws {
      try HistoryTesting.withStore(limits: HistoryLimits(maximumEntries: 2)) { store, _ in
        let first = try HistoryTesting.id(try store.record(HistoryTesting.text("one")))
        let second = try HistoryTesting.id(try store.record(HistoryTesting.text("two")))

        #expect(try store.record(HistoryTesting.text("one")) == .deduplicated(first))
        #expect(try store.list().map(\.id) == [first, second])
      }
    }
  }
}
