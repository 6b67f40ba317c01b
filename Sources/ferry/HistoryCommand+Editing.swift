import ArgumentParser
import FerryClient
import FerryCommandLine
import FerryProtocol

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry.HistoryCommand {
  /// `ferry history delete`.
  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete entries, pinned or not.",
      discussion: "When one of the ids has no entry, nothing is deleted (exit status 1).")
    @Argument(help: ArgumentHelp("The entries' ids.", valueName: "id"))
    var ids: [String]
    @Flag(help: "Print one JSON object: how many entries were deleted.")
    var json = false

    func run() throws {
      let ids = try ids.map { try HistoryText.entryID($0) }
      guard !ids.isEmpty else {
        throw CommandFailure("give the ids of the entries to delete", status: .usage)
      }
      let client = try requireBroker("history delete")
      let deleted = try brokerCall { try client.historyDelete(ids) }
      if json { printLine(try historyJSON(HistoryDeletedResponse(deleted: deleted))) }
    }
  }

  /// `ferry history clear`.
  struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "clear", abstract: "Delete every entry but the pinned ones.")
    @Flag(help: "Delete the pinned entries too: every entry.")
    var pinned = false
    @Flag(help: "Print one JSON object: how many entries were deleted.")
    var json = false

    func run() throws {
      let client = try requireBroker("history clear")
      let deleted = try brokerCall { try client.historyClear(includingPinned: pinned) }
      if json { printLine(try historyJSON(HistoryDeletedResponse(deleted: deleted))) }
    }
  }

  /// `ferry history pin`.
  struct Pin: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "pin", abstract: "Pin an entry: it is never evicted and a clear keeps it.")
    @OptionGroup var target: HistoryPinOptions

    func run() throws { try target.setPinned(true) }
  }

  /// `ferry history unpin`.
  struct Unpin: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unpin", abstract: "Unpin an entry.")
    @OptionGroup var target: HistoryPinOptions

    func run() throws { try target.setPinned(false) }
  }
}

/// What `pin` and `unpin` take: an id, and `--json`.
struct HistoryPinOptions: ParsableArguments {
  @Argument(help: ArgumentHelp("The entry's id.", valueName: "id"))
  var id: String
  @Flag(help: "Print the entry as one JSON object.")
  var json = false

  /// Pins or unpins the entry, printing it with `--json`.
  func setPinned(_ pinned: Bool) throws {
    let id = try HistoryText.entryID(self.id)
    let client = try requireBroker(pinned ? "history pin" : "history unpin")
    let entry = try brokerCall { try client.historySetPinned(pinned, id) }
    if json { printLine(try historyJSON(entry)) }
  }
}
