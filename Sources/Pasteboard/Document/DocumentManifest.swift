import FoundationEssentials
import UniformTypeIdentifiers

/// The `manifest.json` of a pasteboard document: its items, in order, and for each its
/// options, expiration date and representations — in preference order, each with its type,
/// the file holding its bytes and that file's size.
///
/// ```json
/// {
///   "items" : [
///     {
///       "expirationDate" : "2025-06-01T12:00:00.000Z",
///       "options" : [ "transient" ],
///       "representations" : [
///         { "byteCount" : 48, "file" : "0-0.json", "type" : "public.json" },
///         { "byteCount" : 11, "file" : "0-1.txt", "type" : "public.utf8-plain-text" }
///       ]
///     }
///   ],
///   "version" : 1
/// }
/// ```
///
/// The manifest holds names and sizes only; bytes live in the representation files. See
/// `docs/DOCUMENTS.md` for the format.
struct DocumentManifest: Codable, Equatable, Sendable {
  /// The format version this build writes and reads.
  static let currentVersion = 1
  /// The manifest's file name inside the package.
  static let fileName = "manifest.json"
  /// The largest manifest `open` reads: far more than any real document's (a few hundred
  /// bytes per representation), small enough that a damaged file cannot exhaust memory.
  static let maximumSize = 16 << 20

  /// One representation: its type identifier, its file in the package, the file's size.
  struct Representation: Codable, Equatable, Sendable {
    var type: String
    var file: String
    var byteCount: Int
  }

  /// One item.
  struct Item: Codable, Equatable, Sendable {
    /// The option names: `transient`, `currentHostOnly` (and `concealed`, never written).
    var options: [String]
    /// ISO 8601 with milliseconds, in UTC, when the item has one.
    var expirationDate: String?
    var representations: [Representation]
  }

  /// The format version.
  var version: Int
  /// The items, in pasteboard order.
  var items: [Item]

  /// The manifest's JSON: pretty-printed with sorted keys, so that a document reads well and
  /// diffs cleanly.
  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}

// MARK: - Names

extension DocumentManifest {
  /// The file name of representation `representation` of item `item`:
  /// `<item>-<representation>.<extension>`, with the type's filename extension
  /// (``fileExtension(for:)``).
  ///
  /// ```swift
  /// DocumentManifest.fileName(item: 0, representation: 1, type: .utf8PlainText)   // "0-1.txt"
  /// ```
  static func fileName(item: Int, representation: Int, type: UTType) -> String {
    "\(item)-\(representation).\(fileExtension(for: type))"
  }

  /// The type's preferred filename extension; else that of the most specific type it conforms
  /// to that has one (`public.utf8-plain-text` has none, `public.plain-text` has `txt`); else
  /// `data`. Only extensions made of ASCII letters, digits, `-`, `_` and `+` are used.
  static func fileExtension(for type: UTType) -> String {
    if let own = plainExtension(of: type) { return own }
    // The most specific: the supertype with the most supertypes of its own; ties go to the
    // smallest identifier, so that the name never depends on set order.
    let inherited = type.supertypes.compactMap { supertype in
      plainExtension(of: supertype).map {
        (depth: supertype.supertypes.count, id: supertype.identifier, name: $0)
      }
    }.min { ($1.depth, $0.id) < ($0.depth, $1.id) }
    return inherited?.name ?? "data"
  }

  private static func plainExtension(of type: UTType) -> String? {
    guard let candidate = type.preferredFilenameExtension, !candidate.isEmpty,
      candidate.count <= 32,
      candidate.unicodeScalars.allSatisfy({
        ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
          || "-_+".unicodeScalars.contains($0)
      })
    else { return nil }
    return candidate
  }

  /// Why `name` cannot be a representation's file name, or `nil` when it can: one plain
  /// component inside the package, not hidden, not the manifest.
  static func problem(withFileName name: String) -> String? {
    if name.isEmpty { return "an empty file name" }
    if name == "." || name == ".." || name.contains("/") || name.contains("\0") {
      return "file name '\(name)' leaves the package"
    }
    if name.hasPrefix(".") { return "file name '\(name)' is hidden" }
    if name == fileName { return "file name '\(name)' is the manifest's" }
    return nil
  }
}

// MARK: - Options and dates

extension DocumentManifest {
  /// The names options are written under, in this order.
  static let optionNames: [(String, PasteboardItem.Options)] = [
    ("concealed", .concealed),
    ("transient", .transient),
    ("currentHostOnly", .currentHostOnly),
  ]

  /// The names of `options`.
  static func names(of options: PasteboardItem.Options) -> [String] {
    optionNames.filter { options.contains($0.1) }.map(\.0)
  }

  /// The options named by `names`; the first unknown name when there is one.
  static func options(named names: [String]) -> Result<PasteboardItem.Options, UnknownName> {
    var options: PasteboardItem.Options = []
    for name in names {
      guard let match = optionNames.first(where: { $0.0 == name }) else {
        return .failure(UnknownName(name: name))
      }
      options.insert(match.1)
    }
    return .success(options)
  }

  /// An option name this build does not know.
  struct UnknownName: Error {
    var name: String
  }

  private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  /// `date` as ISO 8601 in UTC with milliseconds, to the nearest millisecond.
  ///
  /// The style cuts the fraction instead of rounding it, and a date read from `…00.005Z` is a
  /// hair under 5 ms: without the half millisecond added here, every save of a document that
  /// was opened moved its expiration dates a millisecond earlier.
  static func string(from date: Date) -> String {
    date.addingTimeInterval(0.0005).formatted(dateStyle)
  }

  /// The date an ISO 8601 string names, with or without fractional seconds.
  static func date(from string: String) -> Date? {
    (try? Date(string, strategy: dateStyle)) ?? (try? Date(string, strategy: .iso8601))
  }
}

// MARK: - Decoding

extension DocumentManifest {
  /// Only the version, read first, so that a newer format is reported as such rather than as
  /// whatever field it changed.
  private struct VersionProbe: Decodable {
    var version: Int?
  }

  /// Decodes a manifest, or names what is wrong with it.
  static func decode(_ data: Data) -> Result<DocumentManifest, DocumentProblem> {
    let decoder = JSONDecoder()
    let probe: VersionProbe
    do {
      probe = try decoder.decode(VersionProbe.self, from: data)
    } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
      let detail = context.underlyingError.map { "\($0)" } ?? context.debugDescription
      return .failure(DocumentProblem("\(fileName) is not valid JSON (\(detail))"))
    } catch {
      return .failure(DocumentProblem("\(fileName) is malformed: \(describe(error))"))
    }
    guard let version = probe.version else {
      return .failure(DocumentProblem("\(fileName) has no version"))
    }
    guard version == currentVersion else {
      return .failure(
        DocumentProblem(
          "unsupported version \(version) (this build reads version \(currentVersion))"))
    }
    do {
      return .success(try decoder.decode(DocumentManifest.self, from: data))
    } catch {
      return .failure(DocumentProblem("\(fileName) is malformed: \(describe(error))"))
    }
  }

  /// A decoding error as a short phrase naming the field, such as
  /// `items[0].representations[1].byteCount: expected Int`.
  private static func describe(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      var text = ""
      for key in keys {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return text.isEmpty ? "top level" : text
    }
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)): expected \(type)"
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)): expected \(type), found null"
    case .dataCorrupted(let context):
      let underlying = context.underlyingError.map { "\($0)" }
      return context.codingPath.isEmpty
        ? (underlying ?? context.debugDescription)
        : "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}

/// What is wrong with a document, as the reason of ``PasteboardError/invalidDocument(path:reason:)``.
struct DocumentProblem: Error, Equatable {
  var reason: String

  init(_ reason: String) { self.reason = reason }
}
