import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Pasteboard
import UniformTypeIdentifiers

/// The X targets an item is offered under, in the item's order, and how each is served.
///
/// Each type is offered under its X11 target tags (`UTF8_STRING`, `STRING`), then its
/// preferred MIME type; a type with neither is offered under its identifier. UTF-8 text is
/// also offered as `TEXT`, `COMPOUND_TEXT` and `text/plain` right after its own targets. A target is
/// offered only if it will be served: Latin-1 (`STRING`) is left out when the text has
/// characters Latin-1 cannot hold (advertising a target and then refusing it breaks Qt and
/// Java peers), and `text/plain` when the text is not ASCII.
struct TargetTable: Sendable {
  /// How one target is served.
  struct Entry: Sendable, Equatable {
    enum Source: Sendable, Equatable {
      /// The item's representation of this type, as is.
      case type(UTType)
      /// UTF-8 text, converted to compound text by Xlib.
      case compoundText
      /// Fixed bytes: the password-manager hint of a concealed item.
      case fixed(Data)
    }

    /// The target's atom name.
    var name: String
    var source: Source
    /// The type atom of the reply: the target itself, except `TEXT`, answered as
    /// `UTF8_STRING`.
    var replyType: String
  }

  private(set) var entries: [Entry] = []

  /// The targets of `item`, checking the conversions that may fail.
  static func make(for item: PasteboardItem) async -> TargetTable {
    var table = TargetTable(types: item.types)
    let offersLatin1 = table.entries.contains { $0.source == .type(.latin1PlainText) }
    let plainIndex = table.entries.firstIndex { $0.name == "text/plain" && $0.source == .type(.utf8PlainText) }
    // Both checks read the UTF-8 text once, a chunk at a time: converting a 100 MiB text to
    // Latin-1 to see whether it fits cost its size in memory for as long as the item lived.
    var profile: TextProfile?
    if plainIndex != nil || (offersLatin1 && !item.storedTypes.contains(.latin1PlainText)) {
      profile = (try? await item.payload(for: .utf8PlainText)).flatMap { try? TextProfile(utf8: $0) }
    }
    // `text/plain` without a charset is ASCII or Latin-1 by MIME rules, and GTK decodes it as
    // Latin-1: UTF-8 goes out under that name only when it is ASCII.
    if let plainIndex, profile?.isASCII != true { table.entries.remove(at: plainIndex) }
    if offersLatin1, !item.storedTypes.contains(.latin1PlainText) {
      let fits: Bool
      if let profile {
        fits = profile.fitsLatin1
      } else {
        fits = (try? await item.payload(for: .latin1PlainText)) != nil  // reached some other way
      }
      if !fits { table.entries.removeAll { $0.source == .type(.latin1PlainText) } }
    }
    // A concealed item tells X clipboard managers (Klipper, CopyQ) to keep it out of history,
    // in KDE's words, even when nobody stored the hint.
    if item.options.contains(.concealed), !table.entries.contains(where: { $0.name == "x-kde-passwordManagerHint" }) {
      table.entries.append(
        Entry(name: "x-kde-passwordManagerHint", source: .fixed(Data("secret".utf8)), replyType: "x-kde-passwordManagerHint"))
    }
    return table
  }

  /// The targets of `types`, without checks.
  init(types: [UTType]) {
    var seen = Set<String>()
    func add(_ name: String, _ source: Entry.Source, replyType: String? = nil) {
      guard seen.insert(name).inserted else { return }
      entries.append(Entry(name: name, source: source, replyType: replyType ?? name))
    }
    for type in types {
      for name in Self.targetNames(of: type) { add(name, .type(type)) }
      if type == .utf8PlainText {
        add("TEXT", .type(.utf8PlainText), replyType: "UTF8_STRING")
        add("COMPOUND_TEXT", .compoundText)
        // GTK and Qt offer UTF-8 text as text/plain too, and some readers ask only for it.
        add("text/plain", .type(.utf8PlainText))
      }
    }
  }

  /// The names `type` is offered under.
  static func targetNames(of type: UTType) -> [String] {
    let tags = type.tags
    var names = tags[.x11Target] ?? []
    if let mime = tags[.mimeType]?.first(where: { !$0.contains("\"") }), !names.contains(mime) {
      names.append(mime)
    }
    return names.isEmpty ? [type.identifier] : names
  }

  /// The entry serving the target `name`.
  func entry(named name: String) -> Entry? {
    entries.first { $0.name == name }
  }
}
