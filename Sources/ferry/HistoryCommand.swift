import ArgumentParser
import FerryClient
import FerryCommandLine
import FerryProtocol

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry history`: the broker's clipboard history (docs/HISTORY.md, "Using it").
  struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history",
      abstract: "List, search, show and restore earlier copies, with every representation.",
      discussion: """
        Entries are named by their id, as `ferry history` lists them. A picker needs no glue:
          ferry history --format menu | fzf | ferry history restore --from-menu-line
        Exit status 1 for an id with no entry, or when the broker keeps no history.
        """,
      subcommands: [
        List.self, Search.self, Show.self, Restore.self, Delete.self, Clear.self, Pin.self,
        Unpin.self,
      ],
      defaultSubcommand: List.self)
  }
}

/// How a list of entries is written.
enum HistoryFormat: String, ExpressibleByArgument, CaseIterable {
  /// A line per entry: id, age, types, preview.
  case text
  /// A line per entry, `ID<TAB>preview`, for dmenu, rofi or fzf.
  case menu
  /// One JSON array.
  case json
}

/// The options of the commands that list entries.
struct HistoryListOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The most entries shown (default 50; every entry with --format menu).", valueName: "count"))
  var limit: Int?
  @Option(
    name: [.customLong("pboard", withSingleDash: true), .customLong("pasteboard")],
    help: ArgumentHelp(
      "Only this pasteboard's entries (default: every pasteboard's).", valueName: "name"))
  var pasteboard: String?
  @Option(help: ArgumentHelp("text, menu (ID<TAB>preview) or json.", valueName: "format"))
  var format: HistoryFormat = .text
  @Flag(help: "Print one JSON array (--format json).")
  var json = false
  @Flag(
    help: """
      With --format menu, give image entries their thumbnail as rofi reads it \
      (`rofi -dmenu -show-icons`), made once and kept in ~/.cache/ferry/thumbnails.
      """)
  var icons = false

  /// The format asked for, `--json` included.
  var effectiveFormat: HistoryFormat { json ? .json : format }

  /// The limit asked for, or the format's default.
  func effectiveLimit() throws -> Int {
    if let limit {
      guard limit >= 0 else { throw CommandFailure("--limit must be 0 or more", status: .usage) }
      return min(limit, Int(Int32.max))
    }
    return effectiveFormat == .menu ? Int(Int32.max) : 50
  }

  /// Writes `entries` in the format asked for; `client` makes the thumbnails of `--icons`.
  func print(_ entries: [HistoryEntrySummary], client: BrokerClient) throws {
    switch effectiveFormat {
    case .json: printLine(try historyJSON(entries))
    case .menu:
      for entry in entries {
        let line = HistoryText.menuLine(
          id: entry.id, preview: entry.preview, types: entry.types, size: entry.size)
        // rofi's row options follow a NUL; fzf and dmenu would show them, so only on request.
        // An image whose thumbnail cannot be made is listed without one.
        let icon = icons ? (try? HistoryThumbnails.file(for: entry, client: client)) ?? nil : nil
        printLine(icon.map { line + "\u{0}icon\u{1F}\($0.path)" } ?? line)
      }
    case .text:
      for line in HistoryTable(entries, now: Date().timeIntervalSince1970).lines { printLine(line) }
    }
  }
}

/// `value` as one line of JSON, keys sorted, as `ferry status --json` writes.
func historyJSON(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

extension Ferry.HistoryCommand {
  /// `ferry history list`, the default.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List entries, newest first: id, age, types, preview.")
    @OptionGroup var options: HistoryListOptions

    func run() throws {
      let limit = try options.effectiveLimit()
      let client = try requireBroker("history")
      try options.print(
        try brokerCall { try client.historyList(limit: limit, pasteboard: options.pasteboard) },
        client: client)
    }
  }

  /// `ferry history search`.
  struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "search",
      abstract: "Find entries whose text holds every word (as a word's start), best first.",
      discussion: "Case and accents are ignored: 'hel wor' finds \"Hello, Wörld\".")
    @Argument(help: "The words to find.")
    var words: [String]
    @OptionGroup var options: HistoryListOptions

    func run() throws {
      let limit = try options.effectiveLimit()
      let client = try requireBroker("history search")
      let text = words.joined(separator: " ")
      try options.print(
        try brokerCall {
          try client.historySearch(text, limit: limit, pasteboard: options.pasteboard)
        }, client: client)
    }
  }
}

/// Entries as aligned text lines: id (`*` when pinned), age, types, preview.
struct HistoryTable {
  /// The longest preview shown, in characters.
  static let previewLimit = 80
  /// How many types are named before `+N`.
  static let typesShown = 2

  let lines: [String]

  init(_ entries: [HistoryEntrySummary], now: Double) {
    let rows = entries.map { entry -> [String] in
      let shown = entry.types.prefix(Self.typesShown).joined(separator: ", ")
      let more =
        entry.types.count > Self.typesShown ? " +\(entry.types.count - Self.typesShown)" : ""
      return [
        "\(entry.id)\(entry.pinned ? "*" : "")", HistoryText.age(seconds: now - entry.date),
        shown + more,
        HistoryText.summary(
          preview: entry.preview, types: entry.types, size: entry.size, limit: Self.previewLimit),
      ]
    }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    lines = rows.map { row in
      (0..<3).map { Output.padded(row[$0], to: widths[$0]) }.joined(separator: "  ")
        + "  " + row[3]
    }
  }
}
