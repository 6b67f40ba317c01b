#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A representation ready for its row: hashed, its bytes inline or in a blob file already
/// flushed, its text (if any) extracted for search and preview.
struct StagedRepresentation {
  var type: String
  var isText: Bool
  var size: Int64
  var sha256: String
  /// The bytes, when kept in the row; `nil` when they are in the blob `sha256`.
  var inlineData: Data?
  /// The start of the text, for a text representation.
  var text: String?
}

/// An item whose bytes are all on disk or in memory, ready to insert in one transaction.
struct StagedItem {
  var representations: [StagedRepresentation] = []
  /// The blobs this staging made: named by no row until the insert commits.
  var createdBlobs: [String] = []

  var totalSize: Int64 { representations.reduce(0) { $0 + $1.size } }

  /// The preview of the first text representation.
  var preview: String? {
    representations.lazy.compactMap(\.text).first.flatMap(TextSummary.preview(of:))
  }

  /// What full-text search indexes: every text representation's start.
  var searchText: String? {
    let texts = representations.compactMap(\.text)
    return texts.isEmpty ? nil : texts.joined(separator: "\n")
  }
}

extension BlobStore {
  /// What ``stage(_:limit:)`` made of an item.
  enum StagingOutcome {
    case staged(StagedItem)
    /// The item is over `limit`; nothing was kept. `size` is the size seen.
    case overLimit(size: Int64)
  }

  /// Hashes each representation, keeps the small ones in memory and writes the large ones
  /// as blobs (flushed, and the directory flushed), so the rows can commit next.
  ///
  /// Sizes are checked before anything is written (files by `stat`) and again while
  /// copying, for a file that grows.
  ///
  /// - Throws: ``HistoryError``; the blobs this call made are removed first.
  func stage(_ representations: [HistoryItem.Representation], limit: Int64) throws -> StagingOutcome
  {
    let announced = representations.reduce(Int64(0)) { total, representation in
      switch representation.content {
      case .data(let data): return total + Int64(data.count)
      case .file(let url): return total + (FileCalls.size(of: url.path) ?? 0)
      }
    }
    if announced > limit { return .overLimit(size: announced) }
    var item = StagedItem()
    do {
      for representation in representations {
        let budget = limit - item.totalSize
        guard let staged = try stage(representation, budget: budget, into: &item) else {
          remove(item.createdBlobs)
          return .overLimit(size: limit + 1)
        }
        item.representations.append(staged)
      }
      if !item.createdBlobs.isEmpty { try sync() }
    } catch {
      remove(item.createdBlobs)
      throw error
    }
    return .staged(item)
  }

  /// Stages one representation, or returns `nil` when it holds more than `budget` bytes.
  private func stage(
    _ representation: HistoryItem.Representation, budget: Int64, into item: inout StagedItem
  ) throws -> StagedRepresentation? {
    switch representation.content {
    case .data(let data):
      guard Int64(data.count) <= budget else { return nil }
      return try stage(data, of: representation, into: &item)
    case .file(let url):
      let source = try FileCalls.openSource(url.path)
      defer { close(source) }
      if try FileCalls.size(of: source, path: url.path) <= HistoryStore.inlineLimit {
        var data = Data()
        try FileCalls.readChunks(of: source, path: url.path) { data.append(contentsOf: $0) }
        guard Int64(data.count) <= budget else { return nil }
        return try stage(data, of: representation, into: &item)
      }
      let textBytes = representation.isText ? TextSummary.indexedBytes : 0
      switch try store(contentsOf: source, path: url.path, budget: budget, textBytes: textBytes) {
      case .overBudget:
        return nil
      case .stored(let sha256, let size, let created, let prefix):
        if created { item.createdBlobs.append(sha256) }
        return StagedRepresentation(
          type: representation.type, isText: representation.isText, size: size, sha256: sha256,
          inlineData: nil,
          text: representation.isText
            ? TextSummary.text(from: prefix, isCut: size > Int64(prefix.count)) : nil)
      }
    }
  }

  /// Stages bytes in memory: inline when small, else as a blob.
  private func stage(
    _ data: Data, of representation: HistoryItem.Representation, into item: inout StagedItem
  ) throws -> StagedRepresentation {
    let sha256 = ContentHash.of(data)
    let isInline = data.count <= HistoryStore.inlineLimit
    if !isInline, try store(data, sha256: sha256) { item.createdBlobs.append(sha256) }
    let prefix = data.prefix(TextSummary.indexedBytes)
    return StagedRepresentation(
      type: representation.type, isText: representation.isText, size: Int64(data.count),
      sha256: sha256,
      inlineData: isInline ? data : nil,
      text: representation.isText
        ? TextSummary.text(from: prefix, isCut: data.count > prefix.count) : nil)
  }
}
