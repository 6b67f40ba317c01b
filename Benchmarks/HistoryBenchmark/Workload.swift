import ClipboardHistory
import FerryTestSupport
import Foundation

/// The benchmark's history: a deterministic mix of what people copy.
///
/// | share | what | representations |
/// |---|---|---|
/// | 60 % | a short text, 10–200 B | UTF-8 text |
/// | 25 % | a rich text, 0.5–4 KB | HTML, UTF-8 text |
/// | 14.5 % | a small image, 8–60 KB | PNG, a text proxy (its name) |
/// | 0.5 % | a large image, 100 KB–1 MB | PNG (a blob file), a text proxy |
///
/// Words come from a 2,000-word vocabulary with a skewed (Zipf-like) draw, so some words are
/// in most entries and others in a few; every 97th entry on `primary`, the rest on `general`.
enum Workload {
  static let vocabulary: [String] = (0..<2_000).map { "w\(String($0, radix: 36))x" }

  /// The searches timed: a frequent word, a rare word, two words, a prefix.
  static let searches: [(String, String)] = [
    ("a frequent word (in ~half the entries)", vocabulary[0]),
    ("a rare word", vocabulary[1_500]),
    ("two words", "\(vocabulary[3]) \(vocabulary[40])"),
    ("a 3-letter prefix", String(vocabulary[700].prefix(3))),
    ("a unique line", "uniquemarker12345"),
  ]

  static func mixedItem(_ n: Int, using generator: inout SplitMix64) -> HistoryItem {
    let pasteboard = n % 97 == 0 ? "primary" : "general"
    let draw = generator.next() % 1_000
    var representations: [HistoryItem.Representation]
    switch draw {
    case 0..<600:
      let text =
        words(Int(generator.next() % 30) + 2, using: &generator)
        + (n == 12_345 ? " uniquemarker12345" : "")
      representations = [.data(Data(text.utf8), type: "public.utf8-plain-text", isText: true)]
    case 600..<850:
      let text = words(Int(generator.next() % 500) + 70, using: &generator)
      representations = [
        .data(
          Data("<html><body><p>\(text)</p></body></html>".utf8), type: "public.html", isText: true),
        .data(Data(text.utf8), type: "public.utf8-plain-text", isText: true),
      ]
    default:
      let size =
        draw < 995
        ? 8_000 + Int(generator.next() % 52_000) : 100_000 + Int(generator.next() % 900_000)
      representations = [
        .data(bytes(size, using: &generator), type: "public.png"),
        .data(Data("image-\(n).png".utf8), type: "public.utf8-plain-text", isText: true),
      ]
    }
    return HistoryItem(
      pasteboard: pasteboard, date: Date(timeIntervalSince1970: 1_700_000_000 + Double(n)),
      changeCount: n,
      source: "bench", representations: representations)
  }

  static func shortText(_ text: String, changeCount: Int) -> HistoryItem {
    HistoryItem(
      pasteboard: "general", changeCount: changeCount, source: "bench",
      representations: [.data(Data(text.utf8), type: "public.utf8-plain-text", isText: true)])
  }

  /// `count` words, drawn with a skew toward the start of the vocabulary.
  static func words(_ count: Int, using generator: inout SplitMix64) -> String {
    (0..<count).map { _ in
      let uniform = Double(generator.next() % 1_000_000) / 1_000_000
      return vocabulary[min(vocabulary.count - 1, Int(pow(Double(vocabulary.count), uniform)) - 1)]
    }.joined(separator: " ")
  }

  /// `size` bytes that differ from entry to entry (so blobs are not shared).
  static func bytes(_ size: Int, using generator: inout SplitMix64) -> Data {
    var data = Data(count: size)
    data.withUnsafeMutableBytes { buffer in
      let words = buffer.bindMemory(to: UInt64.self)
      for index in words.indices { words[index] = generator.next() }
    }
    return data
  }
}
