extension HistoryStore {
  /// What ``HistoryStore/record(_:)`` did with a copy.
  ///
  /// ```swift
  /// switch try store.record(item) {
  /// case .recorded(let id, let evicted): log("recorded \(id), evicted \(evicted.count)")
  /// case .deduplicated(let id): log("\(id) moved to the top")
  /// case .refused(let reason): log("not recorded: \(reason)")
  /// }
  /// ```
  public enum RecordResult: Sendable, Hashable {
    /// A new entry, and the entries evicted to stay within the limits.
    case recorded(HistoryEntry.ID, evicted: [HistoryEntry.ID])
    /// The pasteboard's history already held the same content (the same types, in the same
    /// order, with the same bytes): that entry moved to the top, taking the new date, change
    /// count and source, and keeping its id and pinned flag.
    case deduplicated(HistoryEntry.ID)
    /// The copy was not recorded; nothing else changed.
    case refused(Refusal)

    /// The entry that holds the copy, unless it was refused.
    public var id: HistoryEntry.ID? {
      switch self {
      case .recorded(let id, _), .deduplicated(let id): return id
      case .refused: return nil
      }
    }
  }

  /// Why a copy was not recorded.
  public enum Refusal: Sendable, Hashable, CustomStringConvertible {
    /// The copy is larger than ``HistoryLimits/maximumItemBytes``. `size` is the size seen
    /// when the copy was stopped: at least `limit + 1`, at most the copy's size.
    case tooLarge(size: Int64, limit: Int64)
    /// The copy has no representation.
    case empty

    /// One line saying why.
    public var description: String {
      switch self {
      case .tooLarge(let size, let limit):
        return
          "the copy (\(size) bytes or more) is larger than the history's per-item limit of \(limit) bytes"
      case .empty:
        return "the copy has no representation"
      }
    }
  }
}
