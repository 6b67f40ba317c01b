import FoundationEssentials
import UniformTypeIdentifiers

/// How `ferry history` writes entries as text: ages, one-line previews, sizes, and the
/// `ID<TAB>preview` lines of `--format menu` that `restore --from-menu-line` reads back.
///
/// ```swift
/// HistoryText.age(seconds: 190)                        // "3m ago"
/// HistoryText.oneLine("a\tb\nc", limit: 80)            // "a\\tb\\nc"
/// HistoryText.menuLine(id: 12, preview: "hi", types: ["public.utf8-plain-text"], size: 2)  // "12\thi"
/// try HistoryText.entryID(fromMenuLine: "12\thi")      // 12
/// ```
public enum HistoryText {
  /// How long ago, in the largest whole unit: `5s ago`, `3m ago`, `2h ago`, `4d ago`. A
  /// date in the future (another clock) reads `0s ago`.
  public static func age(seconds: Double) -> String {
    let seconds = max(0, Int(seconds.rounded(.down)))
    switch seconds {
    case ..<60: return "\(seconds)s ago"
    case ..<3600: return "\(seconds / 60)m ago"
    case ..<86_400: return "\(seconds / 3600)h ago"
    default: return "\(seconds / 86_400)d ago"
    }
  }

  /// `text` on one line of at most `limit` characters: line breaks, tabs and other control
  /// characters escaped (`\n`, `\t`, `\r`, `\u{1B}`) — so is the Unicode line and paragraph
  /// separators and the bidirectional overrides, which would reorder a terminal's line —
  /// and "…" where it was cut.
  public static func oneLine(_ text: String, limit: Int) -> String {
    var line = ""
    var count = 0
    for character in text {
      let shown = escaped(character)
      if count + shown.count > limit {
        line += "…"
        break
      }
      line += shown
      count += shown.count
    }
    return line
  }

  private static func escaped(_ character: Character) -> String {
    switch character {
    case "\n", "\r\n": return "\\n"
    case "\t": return "\\t"
    case "\r": return "\\r"
    default:
      guard character.unicodeScalars.contains(where: needsEscape) else { return String(character) }
      return character.unicodeScalars.map {
        needsEscape($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0)
      }
      .joined()
    }
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional embeddings, overrides, isolates
    default:
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator: return true
      default: return false
      }
    }
  }

  /// A size for people: `512 B`, `3.4 KiB`, `12.0 MiB`, `1.1 GiB`.
  public static func size(_ bytes: Int64) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    var value = Double(bytes) / 1024
    for unit in ["KiB", "MiB", "GiB"] {
      if value < 1024 || unit == "GiB" {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(unit)"
      }
      value /= 1024
    }
    return "\(bytes) B"
  }

  /// What stands for an entry's content on one line: its preview, or — for an entry with no
  /// text — its first type and size in brackets (`[public.png, 12.3 KiB]`).
  public static func summary(preview: String?, types: [String], size: Int64, limit: Int) -> String {
    if let preview, !preview.isEmpty { return oneLine(preview, limit: limit) }
    return "[\(types.first ?? "no type"), \(Self.size(size))]"
  }

  /// The longest preview in a menu line, in characters: a picker's line, not a page.
  public static let menuPreviewLimit = 120

  /// One line of `--format menu`: the id, a tab, and the entry's one-line summary.
  public static func menuLine(id: Int64, preview: String?, types: [String], size: Int64) -> String {
    "\(id)\t\(summary(preview: preview, types: types, size: size, limit: menuPreviewLimit))"
  }

  /// The id a menu line starts with: what comes before its first tab (the whole line when
  /// it has none), blanks around it ignored.
  ///
  /// - Throws: ``CommandFailure`` (status 2) when that is not an id.
  public static func entryID(fromMenuLine line: String) throws -> Int64 {
    let field =
      line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let trimmed = field.trimmingWhitespace()
    guard let id = parsedID(trimmed) else {
      throw CommandFailure(
        "'\(oneLine(line, limit: 40))' is not a line of `ferry history --format menu` (ID<TAB>preview)",
        status: .usage)
    }
    return id
  }

  /// A history entry id given on the command line.
  ///
  /// - Throws: ``CommandFailure`` (status 2) when `text` is not one (a whole number, 0 or more).
  public static func entryID(_ text: String) throws -> Int64 {
    guard let id = parsedID(text) else {
      throw CommandFailure(
        "'\(oneLine(text, limit: 40))' is not a history entry id (a whole number, as `ferry history` lists)",
        status: .usage)
    }
    return id
  }

  private static func parsedID(_ text: some StringProtocol) -> Int64? {
    guard !text.isEmpty,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int64(text)
  }
}
