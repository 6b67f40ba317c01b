/// What a node sends and takes: the limits and choices of `ferry sync` and `sync.*`
/// (docs/SYNC.md, "What crosses").
public struct SyncSettings: Sendable, Hashable {
  /// Which way copies go.
  public enum Direction: String, Sendable, Hashable {
    /// Both ways.
    case both
    /// Local copies go out; nothing is taken.
    case sendOnly
    /// Copies are taken; nothing goes out.
    case receiveOnly
  }

  /// The pasteboards synchronized: `general`, and `primary` when asked.
  public var pasteboards: [String]
  /// The largest item sent or taken, in bytes; past it an item is skipped and counted.
  public var maximumBytes: Int
  /// Items up to this many bytes are sent with their offer; larger ones when pulled.
  public var eagerBytes: Int
  /// Types whose items are never sent (identifiers or MIME types, as the broker stores them).
  public var excludedTypes: Set<String>
  /// Which way copies go.
  public var direction: Direction

  /// 64 MiB.
  public static let defaultMaximumBytes = 64 << 20
  /// 4 MiB: the broker's in-memory threshold, which holds text and most screenshots.
  public static let defaultEagerBytes = 4 << 20

  public init(
    pasteboards: [String] = ["general"], maximumBytes: Int = defaultMaximumBytes,
    eagerBytes: Int = defaultEagerBytes, excludedTypes: Set<String> = [],
    direction: Direction = .both
  ) {
    self.pasteboards = pasteboards
    self.maximumBytes = maximumBytes
    self.eagerBytes = eagerBytes
    self.excludedTypes = excludedTypes
    self.direction = direction
  }
}
