import FerrySystem

/// Localized descriptions of MIME types, read from the database's per-type files
/// (`<mime dir>/<media>/<subtype>.xml`) the first time a type's description is asked for.
///
/// Reading one small file on demand keeps loading the whole database cheap: most processes
/// never show a description.
package final class MIMEComments: Sendable {
  /// The comments of the default database directories in the process's languages.
  package static let shared = MIMEComments(
    directories: SharedMIMEDatabase.defaultDirectories, languages: Environment.messageLanguages)

  private let directories: [String]
  private let languages: [String]
  private let cache = TrackedMutex<[String: Comment]>([:])

  /// A MIME type's comment: the best translation, and the untranslated text.
  package struct Comment: Sendable {
    package var localized: String?
    package var english: String?
  }

  package init(directories: [String], languages: [String]) {
    self.directories = directories
    self.languages = languages
  }

  /// The comment of `mimeType`.
  package func comment(for mimeType: String) -> Comment {
    if let cached = cache.withLock({ $0[mimeType] }) { return cached }
    var found = Comment()
    for directory in directories {
      guard let bytes = FileBytes.read(directory + "/" + mimeType + ".xml") else { continue }
      found = Self.parse(String(decoding: bytes, as: UTF8.self), languages: languages)
      break
    }
    cache.withLock { $0[mimeType] = found }
    return found
  }

  /// Picks the `<comment>` elements out of a `mime-type` document.
  static func parse(_ document: String, languages: [String]) -> Comment {
    var english: String?
    var translations: [String: String] = [:]
    var rest = Substring(document)
    while let open = rest.firstRange(of: "<comment") {
      rest = rest[open.upperBound...]
      guard let tagEnd = rest.firstIndex(of: ">") else { break }
      let attributes = rest[..<tagEnd]
      rest = rest[rest.index(after: tagEnd)...]
      guard let close = rest.firstRange(of: "</comment>") else { break }
      let text = unescape(rest[..<close.lowerBound])
      rest = rest[close.upperBound...]
      if let language = attribute("xml:lang", in: attributes) {
        translations[language] = text
      } else if english == nil {
        english = text
      }
    }
    let localized = languages.lazy.compactMap { translations[$0] }.first
    return Comment(localized: localized ?? english, english: english)
  }

  private static func attribute(_ name: String, in attributes: Substring) -> String? {
    guard let start = attributes.firstRange(of: name + "=\"") else { return nil }
    let value = attributes[start.upperBound...]
    guard let end = value.firstIndex(of: "\"") else { return nil }
    return String(value[..<end])
  }

  private static func unescape(_ text: Substring) -> String {
    guard text.contains("&") else { return String(text) }
    return String(text)
      .replacing("&lt;", with: "<").replacing("&gt;", with: ">")
      .replacing("&quot;", with: "\"").replacing("&apos;", with: "'")
      .replacing("&amp;", with: "&")
  }
}
