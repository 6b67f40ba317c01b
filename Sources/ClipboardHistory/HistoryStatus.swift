/// How much a history holds, for `ferry status` and `ferry history` summaries.
///
/// ```swift
/// let status = try store.status()
/// print("\(status.entries) entries (\(status.pinnedEntries) pinned), \(status.totalBytes) bytes")
/// ```
public struct HistoryStatus: Sendable, Hashable {
  /// The number of entries.
  public var entries: Int
  /// The number of pinned entries.
  public var pinnedEntries: Int
  /// The sum of the entries' sizes, the figure ``HistoryLimits/maximumTotalBytes`` bounds.
  public var totalBytes: Int64
  /// The database file's size (its pages), without the write-ahead log and the blobs.
  public var databaseBytes: Int64
  /// The limits the store applies.
  public var limits: HistoryLimits
  /// Whether the store writes or only reads.
  public var access: HistoryStore.Access
}
