#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A recorded copy, as the store lists it: what was copied, when, from whom, and its
/// representations' types and sizes (not their bytes; open those with
/// ``HistoryStore/contents(of:at:)``).
///
/// ```swift
/// for entry in try store.list(limit: 50) {
///   print(entry.id, entry.types.joined(separator: ","), entry.preview ?? "")
/// }
/// ```
public struct HistoryEntry: Sendable, Hashable, Identifiable {
  /// The entry's identifier: stable for the entry's life, never reused after it is deleted.
  public struct ID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The database row id.
    public let rawValue: Int64

    /// Wraps a row id.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Orders by row id, which is the order entries were first recorded in.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The row id in decimal.
    public var description: String { String(rawValue) }
  }

  /// The identifier.
  public var id: ID
  /// The pasteboard the copy was on.
  public var pasteboard: String
  /// When the copy was last recorded (a deduplicated copy moves the date forward).
  public var date: Date
  /// The pasteboard's change count for that copy.
  public var changeCount: Int
  /// Who copied, when known.
  public var source: String?
  /// Whether the entry is pinned: never evicted, kept by ``HistoryStore/clear(includingPinned:)``.
  public var isPinned: Bool
  /// The sum of the representations' sizes, in bytes.
  public var totalSize: Int64
  /// The start of the first text representation, bounded (see ``TextPreview``), or `nil`
  /// when no representation is text.
  public var preview: String?
  /// The representations, in the order they were recorded.
  public var representations: [HistoryRepresentation]

  /// The representations' type identifiers, in order.
  public var types: [String] { representations.map(\.type) }
}

/// One representation of a recorded entry: its type, size and where its bytes are.
public struct HistoryRepresentation: Sendable, Hashable {
  /// Where the store keeps the bytes.
  public enum Storage: Sendable, Hashable {
    /// In the database row (small representations).
    case inline
    /// In a content-addressed file under the data directory's `blobs/`.
    case file
  }

  /// The type identifier, as recorded.
  public var type: String
  /// The size in bytes.
  public var size: Int64
  /// Whether the caller marked it as text.
  public var isText: Bool
  /// The SHA-256 of the bytes, in lowercase hexadecimal (a blob file's name).
  public var sha256: String
  /// Where the bytes are kept.
  public var storage: Storage
}
