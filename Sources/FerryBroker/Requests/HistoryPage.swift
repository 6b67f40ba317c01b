import ClipboardHistory
import FerryProtocol

/// The `limit` and `offset` of a list or a search, checked, and how much one answer fetches.
struct HistoryPage {
  /// The entries asked for when a request says nothing.
  static let defaultLimit = 50
  /// The most entries one answer fetches: more than a 64 KiB frame holds, so a page is
  /// bounded by the frame, and a client asking for everything pages through with `next`.
  static let fetchLimit = 1000

  /// The most entries the client wants.
  let limit: Int
  /// How many entries to skip.
  let offset: Int

  /// Checks a request's `limit` and `offset`, taking the defaults for those it leaves out.
  ///
  /// - Throws: A `badRequest` refusal for a number outside 0 to 2³¹−1.
  init(limit: Int?, offset: Int?) throws(ProtocolFailure) {
    self.limit = limit ?? Self.defaultLimit
    self.offset = offset ?? 0
    // Bounded so that offset + limit never overflows.
    let range = 0...Int(Int32.max)
    guard range.contains(self.limit), range.contains(self.offset) else {
      throw .refusal(.badRequest, "limit and offset are whole numbers from 0 to \(Int32.max)")
    }
  }

  /// How many entries to read for this answer.
  var fetched: Int { min(limit, Self.fetchLimit) }

  /// The answer for the entries read: what fits in a frame, and where to go on.
  func answer(_ entries: [HistoryEntry]) -> HistoryEntriesResponse {
    .fitting(
      entries.map(HistoryEntrySummary.init), offset: offset,
      moreMayFollow: entries.count == fetched && fetched < limit)
  }
}
