#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the store keeps of a text representation for search and display: its start, bounded,
/// so a 100 MB log costs the index no more than a page of prose.
enum TextSummary {
  /// How many bytes of each text representation are indexed for search (256 KiB: a long
  /// document's worth; the rest is kept, but not searched).
  static let indexedBytes = 256 << 10
  /// The preview's length at most, in characters.
  static let previewCharacters = 200
  /// The preview's lines at most.
  static let previewLines = 4

  /// `prefix` decoded as UTF-8, invalid sequences replaced; when `isCut`, a character cut
  /// in half at the end is dropped.
  static func text(from prefix: Data, isCut: Bool) -> String {
    var text = String(decoding: prefix, as: UTF8.self)
    if isCut, text.unicodeScalars.last == "\u{FFFD}" { text.unicodeScalars.removeLast() }
    return text
  }

  /// The preview of `text`: leading blank space dropped, then up to ``previewLines`` lines
  /// and ``previewCharacters`` characters, with "…" where it was cut; `nil` for blank text.
  static func preview(of text: String) -> String? {
    let start = text.drop { $0.isWhitespace }
    if start.isEmpty { return nil }
    var preview = ""
    var characters = 0
    var lines = 1
    var truncated = false
    for character in start {
      if characters == previewCharacters || (character.isNewline && lines == previewLines) {
        truncated = true
        break
      }
      if character.isNewline { lines += 1 }
      preview.append(character)
      characters += 1
    }
    while let last = preview.last, last.isWhitespace { preview.removeLast() }
    return truncated ? preview + "…" : preview
  }
}
