#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// User text turned into an FTS5 query that takes every character literally.
///
/// Each whitespace-separated word becomes a quoted FTS5 string (a `"` doubled inside) with
/// a prefix star, and the words are joined by FTS5's implicit AND: `hel "wor` becomes
/// `"hel"* """wor"*`. The table's tokenizer splits a quoted string as it splits the text,
/// so `foo.bar` matches the phrase "foo bar…".
/// See https://www.sqlite.org/fts5.html#full_text_query_syntax.
enum SearchPattern {
  /// The query, or `nil` when `text` has no letter or digit to search for.
  static func prefixes(of text: String) -> String? {
    let words = text.split(whereSeparator: \.isWhitespace)
      .filter { $0.contains { $0.isLetter || $0.isNumber } }
    if words.isEmpty { return nil }
    return words.map { word in
      var quoted = "\""
      for character in word {
        quoted.append(character)
        if character == "\"" { quoted.append(character) }
      }
      return quoted + "\"*"
    }.joined(separator: " ")
  }
}
