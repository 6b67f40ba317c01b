import ClipboardHistory
import Foundation
import Testing

/// Blob files changed behind the store's back: the entry that names one reports it, the
/// rest of the history works.
extension HistoryTestsInOrder {
  @Suite struct BlobFaultTests {
    enum Damage: String, CaseIterable, Sendable { case deleted, truncated }

    @Test(arguments: Damage.allCases)
    func aDamagedBlobIsReportedByItsEntryAlone(_ damage: Damage) throws {
      try HistoryTesting.withStore { store, directory in
        let image = HistoryTesting.bytes(100_000)
        let damaged = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 1,
              representations: [
                .data(Data("caption".utf8), type: "public.utf8-plain-text", isText: true),
                .data(image, type: "public.png"),
              ])))
        let other = try HistoryTesting.id(
          try store.record(
            HistoryItem(
              pasteboard: "general", changeCount: 2,
              representations: [.data(HistoryTesting.bytes(100_000, seed: 5), type: "public.png")]))
        )
        let sha256 = try #require(try store.entry(damaged)).representations[1].sha256
        let blob = directory.appendingPathComponent("blobs").appendingPathComponent(sha256)
        switch damage {
        case .deleted: try FileManager.default.removeItem(at: blob)
        case .truncated: try Data("short".utf8).write(to: blob)
        }

        #expect(
          throws: HistoryError.blobUnavailable(entry: damaged, type: "public.png", path: blob.path)
        ) {
          try store.contents(of: damaged, at: 1)
        }
        #expect(try store.contents(of: damaged, at: 0).data() == Data("caption".utf8))
        #expect(
          try store.contents(of: other, at: 0).data() == HistoryTesting.bytes(100_000, seed: 5))
        #expect(try store.list().count == 2)
        #expect(try store.search("caption").map(\.id) == [damaged])
        #expect(try store.record(HistoryTesting.text("new")).id != nil)
      }
    }

    @Test func recordingTheSameBytesAgainRepairsAMissingBlob() throws {
      try HistoryTesting.withStore { store, directory in
        let image = HistoryTesting.bytes(100_000)
        let item = HistoryItem(
          pasteboard: "general", changeCount: 1, representations: [.data(image, type: "public.png")]
        )
        let id = try HistoryTesting.id(try store.record(item))
        let sha256 = try #require(try store.entry(id)).representations[0].sha256
        try FileManager.default.removeItem(
          at: directory.appendingPathComponent("blobs").appendingPathComponent(sha256))

        #expect(try store.record(item) == .deduplicated(id))

        #expect(try store.contents(of: id, at: 0).data() == image)
      }
    }
  }
}
