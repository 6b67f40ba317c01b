import Pasteboard

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One copy to record: the pasteboard it was on, when, from whom, and its representations in
/// preference order.
///
/// The store knows nothing of types: a representation's type is a plain identifier string,
/// and the caller says which representations are text (searched and previewed).
///
/// ```swift
/// let item = HistoryItem(
///   pasteboard: "general", changeCount: 42, source: "firefox",
///   representations: [
///     .data(Data("<b>Hello</b>".utf8), type: "public.html", isText: true),
///     .data(Data("Hello".utf8), type: "public.utf8-plain-text", isText: true),
///     .file(URL(fileURLWithPath: "/tmp/shot.png"), type: "public.png"),
///   ])
/// let result = try store.record(item)
/// ```
public struct HistoryItem: Sendable {
  /// The pasteboard's name (`general`, `primary`, or any other).
  public var pasteboard: String
  /// When the copy happened.
  public var date: Date
  /// The pasteboard's change count for this copy.
  public var changeCount: Int
  /// Who copied: the owner's `WM_CLASS`, a client's name, or `nil` when unknown.
  public var source: String?
  /// The representations, richest first. Their order is kept.
  public var representations: [Representation]

  /// Makes an item to record.
  ///
  /// - Parameters:
  ///   - pasteboard: The pasteboard's name.
  ///   - date: When the copy happened.
  ///   - changeCount: The pasteboard's change count for this copy.
  ///   - source: Who copied, when known.
  ///   - representations: The representations, richest first.
  public init(
    pasteboard: String, date: Date = Date(), changeCount: Int, source: String? = nil,
    representations: [Representation]
  ) {
    self.pasteboard = pasteboard
    self.date = date
    self.changeCount = changeCount
    self.source = source
    self.representations = representations
  }
}

extension HistoryItem {
  /// One representation to record: a type identifier and its bytes.
  public struct Representation: Sendable {
    /// The type identifier (`public.utf8-plain-text`, `public.png`, `com.example.profile`).
    public var type: String
    /// The bytes: in memory, or a file's contents (copied in chunks, never loaded whole).
    public var content: PasteboardPayload
    /// Whether the bytes are UTF-8 text to search and preview. Invalid sequences are
    /// replaced, never refused.
    public var isText: Bool

    /// Makes a representation.
    ///
    /// - Parameters:
    ///   - type: The type identifier.
    ///   - content: Where the bytes are.
    ///   - isText: Whether the bytes are UTF-8 text to search and preview.
    public init(type: String, content: PasteboardPayload, isText: Bool = false) {
      self.type = type
      self.content = content
      self.isText = isText
    }

    /// A representation whose bytes are in memory.
    public static func data(_ data: Data, type: String, isText: Bool = false) -> Self {
      Self(type: type, content: .data(data), isText: isText)
    }

    /// A representation whose bytes are a file's contents, copied in chunks and never
    /// loaded whole. The file is read during ``HistoryStore/record(_:)`` and not kept.
    public static func file(_ url: URL, type: String, isText: Bool = false) -> Self {
      Self(type: type, content: .file(url), isText: isText)
    }
  }

}
