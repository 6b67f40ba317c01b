import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The X targets an item is offered under, in the item's order, and how each is served.
///
/// Each type is offered under its X11 target tags (`UTF8_STRING`, `STRING`), then its
/// preferred MIME type; a type with neither is offered under its identifier when it is a
/// custom type (a profile's), and not at all when it is a `public` one such as
/// `public.utf16-external-plain-text`, whose bytes X readers get under a sibling's names.
/// UTF-8 text is also offered as `TEXT`, `COMPOUND_TEXT` and `text/plain` right after its own
/// targets.
///
/// Text is offered to every reader, as GTK does: `STRING` and `text/plain` are always
/// offered with UTF-8 text and served in GTK's lenient forms (``EscapedTextForm``), with
/// `\u2014`-style escapes for what Latin-1 or ASCII cannot hold, never refused. Stored
/// Latin-1 is served as stored.
struct TargetTable: Sendable {
  /// How one target is served.
  struct Entry: Sendable, Equatable {
    enum Source: Sendable, Equatable {
      /// The item's representation of this type, as is.
      case type(UTType)
      /// UTF-8 text, converted to compound text by Xlib.
      case compoundText
      /// UTF-8 text in GTK's lenient form of a legacy target.
      case escapedText(EscapedTextForm)
      /// Fixed bytes: the password-manager hint of a concealed item.
      case fixed(Data)
    }

    /// The target's atom name.
    var name: String
    var source: Source
    /// The type atom of the reply: the target itself, except `TEXT`, answered as
    /// `UTF8_STRING`.
    var replyType: String

    /// The payload when it is at hand, with nothing to run or convert: a stored
    /// representation of the entry's own type, or fixed bytes; `nil` otherwise, when
    /// ``payload(of:)`` produces it in a task.
    func readyPayload(of item: PasteboardItem) -> PasteboardPayload? {
      switch source {
      case .type(let type): item.storedPayload(for: type)
      case .fixed(let bytes): .data(bytes)
      case .compoundText, .escapedText: nil
      }
    }

    /// The payload of a `.type` or `.escapedText` entry; `nil` when it cannot be produced,
    /// or for the other sources, which the X thread serves.
    func payload(of item: PasteboardItem) async -> PasteboardPayload? {
      switch source {
      case .type(let type): try? await item.payload(for: type)
      case .escapedText(let form): try? await item.escapedText(form)
      case .compoundText, .fixed: nil
      }
    }
  }

  private(set) var entries: [Entry] = []

  /// The targets of `item`.
  static func make(for item: PasteboardItem) async -> TargetTable {
    var table = TargetTable(types: item.types, ownerNames: item.ownerNames)
    // Latin-1 that was converted from the UTF-8 text goes out in GTK's form, which never
    // fails; nothing here reads the text, however large.
    if !item.storedTypes.contains(.latin1PlainText), item.types.contains(.utf8PlainText) {
      for index in table.entries.indices
      where table.entries[index].source == .type(.latin1PlainText) {
        table.entries[index].source = .escapedText(.latin1)
      }
    }
    // A concealed item tells X clipboard managers (Klipper, CopyQ) to keep it out of history,
    // in KDE's words, even when nobody stored the hint.
    if item.options.contains(.concealed),
      !table.entries.contains(where: { $0.name == "x-kde-passwordManagerHint" })
    {
      table.entries.append(
        Entry(
          name: "x-kde-passwordManagerHint", source: .fixed(Data("secret".utf8)),
          replyType: "x-kde-passwordManagerHint"))
    }
    // Ferry's mark, so that Ferry knows its own copy when a bridge hands it back: the
    // compositor's XWayland bridge offers an X owner's targets on Wayland (every name with a
    // `/`), and an X clipboard manager may own it again.
    table.entries.append(
      Entry(name: FerryMarker.name, source: .fixed(Data()), replyType: FerryMarker.name))
    return table
  }

  /// The targets of `types`, without checks; each type is also offered under the names its
  /// owner spelled it with (`ownerNames`, `PasteboardItem.ownerNames`), after its own.
  init(types: [UTType], ownerNames: [UTType: [String]] = [:]) {
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
        // GTK and Qt offer UTF-8 text as text/plain too, and some readers ask only for it:
        // ASCII by MIME rules, so GTK's escaped form.
        add("text/plain", .escapedText(.asciiCRLF))
      }
      for name in ownerNames[type] ?? [] { add(name, .type(type)) }
    }
  }

  /// The names `type` is offered under.
  static func targetNames(of type: UTType) -> [String] {
    // The declared tags: a table is made without reading the MIME database, which would add
    // 15 ms to the first paste after every pbcopy (its server is a new process each time).
    // The database only adds aliases after a system type's own MIME types, so the first is
    // the same; a system type that declares none is offered under its X11 names only.
    let declared = type._declaredTags
    var names = declared[.x11Target] ?? []
    if let mime = declared[.mimeType]?.first(where: { !$0.contains("\"") }), !names.contains(mime) {
      names.append(mime)
    }
    if names.isEmpty, !type.isPublic { names.append(type.identifier) }
    return names
  }

  /// The entry serving the target `name`.
  func entry(named name: String) -> Entry? {
    entries.first { $0.name == name }
  }
}
