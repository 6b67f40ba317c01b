import ClipboardHistory
import FerryProtocol
import Pasteboard

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BrokerHistory {
  /// Puts an entry back on `board` as its current item, with every representation, and
  /// notes the entry's own source for it: recording it again moves the entry to the top
  /// (a duplicate), keeping its id, pin and source.
  ///
  /// - Returns: The pasteboard's new change count, or `nil` when there is no such entry.
  /// - Throws: ``HistoryError`` when a blob file of the entry is missing.
  func restore(_ id: HistoryEntry.ID, onto board: Pasteboard) async throws -> Int? {
    guard let (entry, item) = try await load(id, converters: board.converters) else { return nil }
    sources.note(item, source: entry.source)
    return board.write([item])
  }

  /// Removes the links ``load(_:converters:)`` made for `item`'s blobs, once nothing serves
  /// the item any more (a `historyShow` that has sent its bytes). An open descriptor keeps
  /// reading a removed link.
  func releaseLinks(of item: PasteboardItem) {
    let directory = restoredDirectory.standardizedFileURL.path + "/"
    for case let url? in item.representations.map(\.fileURL)
    where url.standardizedFileURL.path.hasPrefix(directory) {
      try? FileManager.default.removeItem(at: url)
    }
  }
}

extension HistoryEntrySummary {
  /// An entry as the protocol describes it.
  init(_ entry: HistoryEntry) {
    self.init(
      id: entry.id.rawValue, pasteboard: entry.pasteboard, date: entry.date.timeIntervalSince1970,
      changeCount: entry.changeCount, source: entry.source, pinned: entry.isPinned,
      size: entry.totalSize,
      preview: entry.preview, types: entry.types)
  }
}

extension HistoryStatusSummary {
  /// The figures of a history that records.
  init(_ status: HistoryStatus, database: String) {
    self.init(
      enabled: true, entries: status.entries, pinned: status.pinnedEntries,
      bytes: status.totalBytes,
      database: database)
  }
}
