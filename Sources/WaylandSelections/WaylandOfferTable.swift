import FoundationEssentials
import Pasteboard
import UniformTypeIdentifiers

/// The MIME types an item is offered under on Wayland, in the item's order, and how each is
/// served.
///
/// Each type is offered under its MIME type, then its X11 target names (XWayland and GTK ask
/// for `UTF8_STRING`); a type with neither is offered under its identifier when it is a custom
/// type (a profile's). UTF-8 text is also offered as `text/plain` and `TEXT` — the same bytes,
/// as wl-copy serves them — and as `STRING` in GTK's lenient Latin-1. A concealed item adds
/// KDE's `x-kde-passwordManagerHint: secret`. A copy of another program's answers to each name
/// that program offered (`PasteboardItem.ownerNames`). Last comes Ferry's marker, which tells the
/// broker its own offer from another program's.
struct WaylandOfferTable: Sendable {
  /// How one MIME type is served.
  enum Source: Sendable, Equatable {
    /// The item's representation of this type.
    case type(UTType)
    /// UTF-8 text in GTK's lenient form of a legacy target.
    case escapedText(EscapedTextForm)
    /// Fixed bytes.
    case fixed(Data)
  }

  /// The MIME types, in order, with their sources.
  private(set) var entries: [(name: String, source: Source)] = []

  /// The table of `item`, marked with `marker`.
  init(item: PasteboardItem, marker: String) {
    var seen = Set<String>()
    func add(_ name: String, _ source: Source) {
      if seen.insert(name).inserted { entries.append((name, source)) }
    }
    for type in item.types {
      let declared = type._declaredTags
      if let mime = declared[.mimeType]?.first(where: { !$0.contains("\"") }) {
        add(mime, .type(type))
      }
      for name in declared[.x11Target] ?? [] where name != "STRING" { add(name, .type(type)) }
      if type == .utf8PlainText {
        add("text/plain", .type(type))
        add("TEXT", .type(type))
        add("STRING", .escapedText(.latin1))
      } else if let latin1 = declared[.x11Target], latin1.contains("STRING") {
        add("STRING", .type(type))
      }
      if declared[.mimeType] == nil, declared[.x11Target] == nil, !type.isPublic {
        add(type.identifier, .type(type))
      }
      // As its owner spelled it (`text/plain;charset=UTF-8`), for a copy kept after it went.
      for name in item.ownerNames[type] ?? [] { add(name, .type(type)) }
    }
    if item.options.contains(.concealed) {
      add(WaylandOfferTable.concealedHint, .fixed(Data("secret".utf8)))
    }
    add(marker, .fixed(Data()))
  }

  /// The MIME type password managers add to mark a secret (KDE's convention).
  static let concealedHint = "x-kde-passwordManagerHint"

  /// The source serving `name`.
  func source(of name: String) -> Source? {
    entries.first { $0.name == name }?.source
  }

  /// The bytes served for `name` when they are at hand, with nothing to run or convert: a
  /// representation stored in memory, or fixed bytes.
  func readyPayload(_ name: String, of item: PasteboardItem) -> Data? {
    switch source(of: name) {
    case .type(let type)?:
      guard case .data(let data)? = item.storedPayload(for: type) else { return nil }
      return data
    case .fixed(let bytes)?: return bytes
    case .escapedText?, nil: return nil
    }
  }

  /// The bytes served for `name`; `nil` when the item cannot produce them.
  func payload(_ name: String, of item: PasteboardItem) async -> Data? {
    switch source(of: name) {
    case .type(let type)?: return try? await item.data(for: type)
    case .escapedText(let form)?:
      return try? await item.escapedText(form).data()
    case .fixed(let bytes)?: return bytes
    case nil: return nil
    }
  }
}
