import ArgumentParser
import FerryClient
import FerryCommandLine
import FerryProtocol
import FerrySystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry.HistoryCommand {
  /// `ferry history show`: an entry's bytes.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Write an entry's bytes to standard output.",
      discussion: """
        Without --type, its first representation, as recorded. With --type, the first type \
        the entry stores or converts to, as pbpaste --type does.
        """)
    @Argument(help: ArgumentHelp("The entry's id.", valueName: "id"))
    var id: String
    @Option(
      name: .long,
      help: ArgumentHelp("The types wanted, best first (repeatable).", valueName: "type"))
    var type: [String] = []
    @Flag(
      help:
        "Print one JSON object: the type served and the bytes (as text when UTF-8, else base64).")
    var json = false
    @Flag(
      help: "Write the entry's thumbnail (a PNG of at most 128 × 128) instead, kept for the picker."
    )
    var thumbnail = false

    func run() throws {
      let id = try HistoryText.entryID(self.id)
      let types = try type.map(TypeArgument.identifier)
      let client = try requireBroker("history show")
      if thumbnail { return try writeThumbnail(id, client: client) }
      guard json else {
        _ = try brokerCall { try client.historyShow(id, types: types, into: 1) }
        return
      }
      let (answer, data) = try brokerCall { try client.historyShow(id, types: types) }
      printLine(try historyJSON(ShownRepresentation(id: id, answer: answer, data: data)))
    }

    /// Writes entry `id`'s thumbnail to standard output.
    private func writeThumbnail(_ id: Int64, client: BrokerClient) throws {
      // The entry's summary says its types and size: found among the newest, else by paging.
      var offset = 0
      var entry: HistoryEntrySummary?
      while entry == nil {
        let page = try brokerCall { try client.historyList(limit: 500, offset: offset) }
        entry = page.first { $0.id == id }
        if page.count < 500 { break }
        offset += page.count
      }
      guard let entry else {
        throw CommandFailure("no history entry \(id)", status: .nothingAvailable)
      }
      guard let file = try HistoryThumbnails.file(for: entry, client: client) else {
        throw CommandFailure(
          "entry \(id) holds no image (\(entry.types.joined(separator: ", "))): no thumbnail",
          status: .nothingAvailable)
      }
      Output.write(try Data(wholeFileAt: file))
    }
  }

  /// `ferry history restore`: an entry back on a pasteboard.
  struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore",
      abstract: "Make an entry the current copy again, with all its representations.",
      discussion: """
        With --from-menu-line, the id is taken from a line of `ferry history --format menu` \
        (what comes before its tab), given as the argument or, without one or with '-', \
        read as the first line of standard input:
          ferry history --format menu | fzf | ferry history restore --from-menu-line
        """)
    @Argument(
      help: ArgumentHelp(
        "The entry's id (or, with --from-menu-line, the menu line).", valueName: "id"))
    var value: String?
    @Flag(help: "Take the id from a menu line (the argument, or standard input's first line).")
    var fromMenuLine = false
    @Option(
      name: [.customLong("pboard", withSingleDash: true), .customLong("pasteboard")],
      help: ArgumentHelp("The pasteboard to restore to.", valueName: "name"))
    var pasteboard = "general"
    @Flag(help: "Print one JSON object: the id, the pasteboard and its change count.")
    var json = false

    func run() throws {
      let id = try entryID()
      let client = try requireBroker("history restore")
      let count = try brokerCall { try client.historyRestore(id, to: pasteboard) }
      if json {
        printLine(
          try historyJSON(RestoredEntry(id: id, pasteboard: pasteboard, changeCount: count)))
      }
    }

    /// The id: the argument, or the menu line's.
    private func entryID() throws -> Int64 {
      guard fromMenuLine else {
        guard let value else {
          throw CommandFailure("give the entry's id, or --from-menu-line", status: .usage)
        }
        return try HistoryText.entryID(value)
      }
      if let value, value != "-" { return try HistoryText.entryID(fromMenuLine: value) }
      let input = (try? FileDescriptor.standardInput.readToEnd()) ?? []
      guard let line = String(decoding: input, as: UTF8.self).split(separator: "\n").first,
        !line.isEmpty
      else {
        throw CommandFailure(
          "nothing to restore: no menu line on standard input (was the picker cancelled?)",
          status: .nothingAvailable)
      }
      return try HistoryText.entryID(fromMenuLine: String(line))
    }
  }
}

/// What `ferry history restore --json` prints.
private struct RestoredEntry: Encodable {
  var id: Int64
  var pasteboard: String
  var changeCount: Int
}

/// What `ferry history show --json` prints.
private struct ShownRepresentation: Encodable {
  var id: Int64
  var type: String
  var requested: String
  var text: String?
  var base64: String?

  init(id: Int64, answer: ReadResponse, data: Data) {
    self.id = id
    type = answer.type
    requested = answer.requested
    if let text = String(data: data, encoding: .utf8) {
      self.text = text
    } else {
      base64 = data.base64EncodedString()
    }
  }
}
