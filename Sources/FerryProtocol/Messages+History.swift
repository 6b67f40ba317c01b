#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The clipboard history's operations (docs/PROTOCOL.md, "history"). Entries are named by
// their id, a number the history never reuses.

/// A history entry as the protocol describes it: what was copied, when, by whom, and its
/// types — never its bytes (`historyShow` sends those).
///
/// `{"changeCount":7,"date":1767225600.25,"id":12,"pasteboard":"general","pinned":false,
/// "preview":"Hello","size":5,"source":"pbcopy","types":["public.utf8-plain-text"]}`
///
/// `source` and `preview` are `null` when unknown (an X owner without `WM_CLASS`, an entry
/// with no text), never absent.
public struct HistoryEntrySummary: Codable, Sendable, Hashable {
  /// The entry's id.
  public var id: Int64
  /// The pasteboard the copy was on.
  public var pasteboard: String
  /// When it was last copied, in seconds since 1970.
  public var date: Double
  /// The pasteboard's change count for that copy.
  public var changeCount: Int
  /// Who copied: a client's name (`pbcopy`) or an X application's class, when known.
  public var source: String?
  /// Whether the entry is pinned: never evicted, kept by a clear.
  public var pinned: Bool
  /// The representations' sizes added up, in bytes.
  public var size: Int64
  /// The start of the first text representation (at most 4 lines and 200 characters), or
  /// `nil` when none is text.
  public var preview: String?
  /// The representations' type identifiers, in the order recorded.
  public var types: [String]

  /// Creates an entry's description.
  public init(
    id: Int64, pasteboard: String, date: Double, changeCount: Int, source: String?, pinned: Bool,
    size: Int64,
    preview: String?, types: [String]
  ) {
    self.id = id
    self.pasteboard = pasteboard
    self.date = date
    self.changeCount = changeCount
    self.source = source
    self.pinned = pinned
    self.size = size
    self.preview = preview
    self.types = types
  }

  enum CodingKeys: String, CodingKey {
    case id, pasteboard, date, changeCount, source, pinned, size, preview, types
  }

  /// Encodes the entry, `source` and `preview` as `null` when unknown.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(pasteboard, forKey: .pasteboard)
    try container.encode(date, forKey: .date)
    try container.encode(changeCount, forKey: .changeCount)
    try container.encode(source, forKey: .source)  // null when unknown, never absent
    try container.encode(pinned, forKey: .pinned)
    try container.encode(size, forKey: .size)
    try container.encode(preview, forKey: .preview)
    try container.encode(types, forKey: .types)
  }
}

/// Lists history entries, newest first.
///
/// `{"op":"historyList","limit":50,"offset":0,"pasteboard":"general"}`
public struct HistoryListRequest: BrokerRequest, Hashable {
  /// `historyList`.
  public var op = BrokerOperation.historyList
  /// The most entries wanted; 50 when absent.
  public var limit: Int?
  /// How many of the newest to skip; 0 when absent.
  public var offset: Int?
  /// Only this pasteboard's entries; every pasteboard's when absent (unlike other requests,
  /// where absent means `general`).
  public var pasteboard: String?

  /// Creates a request; `nil` leaves a field to its default.
  public init(limit: Int? = nil, offset: Int? = nil, pasteboard: String? = nil) {
    self.limit = limit
    self.offset = offset
    self.pasteboard = pasteboard
  }
}

/// Finds history entries by the words of their text representations: every word, as a word
/// prefix, ignoring case and accents; ranked, newest first among equals.
///
/// `{"op":"historySearch","text":"hel wor","limit":50}`
public struct HistorySearchRequest: BrokerRequest, Hashable {
  /// `historySearch`.
  public var op = BrokerOperation.historySearch
  /// The words to find.
  public var text: String
  /// The most entries wanted; 50 when absent.
  public var limit: Int?
  /// How many of the best matches to skip; 0 when absent.
  public var offset: Int?
  /// Only this pasteboard's entries; every pasteboard's when absent.
  public var pasteboard: String?

  /// Creates a request; `nil` leaves a field to its default.
  public init(text: String, limit: Int? = nil, offset: Int? = nil, pasteboard: String? = nil) {
    self.text = text
    self.limit = limit
    self.offset = offset
    self.pasteboard = pasteboard
  }
}

/// The answer to `historyList` and `historySearch`: a page of entries.
///
/// A page holds what fits in one RESPONSE frame (64 KiB of JSON, a few hundred entries).
/// When it holds fewer entries than were asked for and more may follow, ``next`` is the
/// offset to ask for the rest with; absent, the answer is complete.
///
/// `{"entries":[{…},{…}],"next":312}`
public struct HistoryEntriesResponse: Codable, Sendable, Hashable {
  /// The entries, in order.
  public var entries: [HistoryEntrySummary]
  /// The offset of the entry after the last one here, when the answer was cut short.
  public var next: Int?

  /// Creates an answer.
  public init(entries: [HistoryEntrySummary], next: Int? = nil) {
    self.entries = entries
    self.next = next
  }

  /// The longest prefix of `entries` that fits in one RESPONSE frame, with ``next`` set
  /// when entries were left out or `moreMayFollow`.
  ///
  /// An entry whose description alone would not fit (an X owner offering thousands of
  /// targets, a client that named itself with 60 KiB) is sent with its first types only,
  /// and without source and preview if need be: a page always makes progress.
  ///
  /// - Parameters:
  ///   - entries: The entries found, from `offset` on.
  ///   - offset: The offset of the first of `entries`.
  ///   - moreMayFollow: Whether entries past these may exist (the broker fetched fewer than
  ///     were asked for).
  public static func fitting(_ entries: [HistoryEntrySummary], offset: Int, moreMayFollow: Bool)
    -> Self
  {
    let whole = Self(entries: entries, next: moreMayFollow ? offset + entries.count : nil)
    if fits(whole) { return whole }
    // Room for the envelope, `{"entries":[` … `],"next":…}`, and a comma per entry.
    var room = FrameLimits.maxJSONBody - 64
    var page: [HistoryEntrySummary] = []
    for entry in entries {
      let size = encodedSize(entry) + 1
      if size > room { break }
      room -= size
      page.append(entry)
    }
    if page.isEmpty, var first = entries.first {
      while !first.types.isEmpty, encodedSize(first) > room {
        first.types.removeLast(max(1, first.types.count / 2))
      }
      if encodedSize(first) > room { (first.source, first.preview) = (nil, nil) }  // a client's name of 60 KiB
      page = [first]
    }
    return Self(entries: page, next: offset + page.count)
  }

  private static func fits(_ value: some Encodable) -> Bool {
    encodedSize(value) <= FrameLimits.maxJSONBody
  }

  private static func encodedSize(_ value: some Encodable) -> Int {
    (try? JSONCoding.encoder.encode(value).count) ?? Int.max
  }
}

/// Sends one representation of a history entry, exactly as `read` does: a ``ReadResponse``,
/// then the bytes as DATA frames and an END frame. A type the entry does not store is
/// converted as for `read`.
///
/// `{"op":"historyShow","id":12,"types":["public.utf8-plain-text"]}`
public struct HistoryShowRequest: BrokerRequest, Hashable {
  /// `historyShow`.
  public var op = BrokerOperation.historyShow
  /// The entry.
  public var id: Int64
  /// The types in order of preference; the entry's first representation when absent or
  /// empty.
  public var types: [String]?

  /// Creates a request.
  public init(id: Int64, types: [String]? = nil) {
    self.id = id
    self.types = types
  }
}

/// Makes a history entry the current item of a pasteboard, with all its representations.
/// Answered with a ``ChangeCountResponse`` once the copy is out (on the X selection when the
/// pasteboard is bridged), as `write` is.
///
/// `{"op":"historyRestore","id":12,"pasteboard":"general"}`
public struct HistoryRestoreRequest: BrokerRequest, Hashable {
  /// `historyRestore`.
  public var op = BrokerOperation.historyRestore
  /// The entry.
  public var id: Int64
  /// The pasteboard; `general` when absent.
  public var pasteboard: String?

  /// Creates a request.
  public init(id: Int64, pasteboard: String? = nil) {
    self.id = id
    self.pasteboard = pasteboard
  }
}

/// Deletes history entries, pinned or not. When one of the ids has no entry, nothing is
/// deleted and the answer is `ERROR notFound`.
///
/// `{"op":"historyDelete","ids":[12,14]}`
public struct HistoryDeleteRequest: BrokerRequest, Hashable {
  /// `historyDelete`.
  public var op = BrokerOperation.historyDelete
  /// The entries, at least one.
  public var ids: [Int64]

  /// Creates a request.
  public init(ids: [Int64]) { self.ids = ids }
}

/// Deletes every unpinned history entry; with `includingPinned`, every entry.
///
/// `{"op":"historyClear","includingPinned":false}`
public struct HistoryClearRequest: BrokerRequest, Hashable {
  /// `historyClear`.
  public var op = BrokerOperation.historyClear
  /// Whether pinned entries go too; `false` when absent.
  public var includingPinned: Bool?

  /// Creates a request.
  public init(includingPinned: Bool? = nil) { self.includingPinned = includingPinned }
}

/// The answer to `historyDelete` and `historyClear`: how many entries went.
///
/// `{"deleted":3}`
public struct HistoryDeletedResponse: Codable, Sendable, Hashable {
  /// The number of entries deleted.
  public var deleted: Int

  /// Creates an answer.
  public init(deleted: Int) { self.deleted = deleted }
}

/// Pins an entry (`historyPin`: never evicted, kept by a clear) or unpins it
/// (`historyUnpin`). Answered with the entry's ``HistoryEntrySummary``.
///
/// `{"op":"historyPin","id":12}`
public struct HistoryPinRequest: BrokerRequest, Hashable {
  /// `historyPin` or `historyUnpin`.
  public var op: BrokerOperation
  /// The entry.
  public var id: Int64

  /// Creates a request that pins the entry, or unpins it when `pinned` is `false`.
  public init(id: Int64, pinned: Bool = true) {
    op = pinned ? .historyPin : .historyUnpin
    self.id = id
  }
}

/// The history's part of the `status` answer: how much it holds, or why it is off.
///
/// `{"bytes":48213,"database":"/home/ana/.local/share/ferry/history.sqlite","enabled":true,"entries":31,"pinned":2}`
/// or `{"enabled":false,"problem":"history.enabled is false"}`
public struct HistoryStatusSummary: Codable, Sendable, Hashable {
  /// Whether the broker records a history.
  public var enabled: Bool
  /// The number of entries.
  public var entries: Int?
  /// The number of pinned entries.
  public var pinned: Int?
  /// The entries' sizes added up, in bytes (what the size limit bounds).
  public var bytes: Int64?
  /// The database file.
  public var database: String?
  /// Why the history is off, or why its figures cannot be read.
  public var problem: String?

  /// Creates the history's status.
  public init(
    enabled: Bool, entries: Int? = nil, pinned: Int? = nil, bytes: Int64? = nil,
    database: String? = nil,
    problem: String? = nil
  ) {
    self.enabled = enabled
    self.entries = entries
    self.pinned = pinned
    self.bytes = bytes
    self.database = database
    self.problem = problem
  }
}
