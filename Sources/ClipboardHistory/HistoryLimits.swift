/// How much the history keeps.
///
/// After each recording, the oldest unpinned entries are evicted, in the same transaction,
/// until the history is back within ``maximumEntries`` and ``maximumTotalBytes``. Pinned
/// entries count toward both limits but are never evicted: when only pinned entries are
/// left to evict, the history stays over its limits rather than drop the copy just made.
///
/// ```swift
/// var limits = HistoryLimits()
/// limits.maximumEntries = 5_000
/// let store = try HistoryStore(directory: dataDirectory, limits: limits)
/// ```
public struct HistoryLimits: Sendable, Hashable {
  /// The most entries kept. Default 1,000 (CopyQ keeps 200 by default, 100,000 at most).
  public var maximumEntries: Int
  /// The most bytes kept, summed over entries' ``HistoryEntry/totalSize`` (a blob shared by
  /// two entries counts twice, so the disk holds at most this much). Default 1 GiB.
  public var maximumTotalBytes: Int64
  /// The largest copy recorded; a larger one is refused
  /// (``HistoryStore/Refusal/tooLarge(size:limit:)``). Default 256 MiB.
  public var maximumItemBytes: Int64

  /// Makes limits; every argument has the default documented on its property.
  public init(
    maximumEntries: Int = 1_000, maximumTotalBytes: Int64 = 1 << 30,
    maximumItemBytes: Int64 = 256 << 20
  ) {
    self.maximumEntries = maximumEntries
    self.maximumTotalBytes = maximumTotalBytes
    self.maximumItemBytes = maximumItemBytes
  }
}
