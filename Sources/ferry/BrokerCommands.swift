import ArgumentParser
import FerryClient
import FerryCommandLine
import FerryProtocol
import JSONText

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Connects to the running broker, or fails with status 3.
func requireBroker(_ command: String) throws -> BrokerClient {
  do {
    return try BrokerClient.connect(clientName: "ferry \(command)")
  } catch let error where error.code == .noBroker {
    throw CommandFailure(
      "no broker is running (start one with `ferry daemon`)", status: .noDisplayNoBroker)
  } catch {
    throw CommandFailure(error)
  }
}

/// Runs a broker call, mapping its failure to the exit status.
func brokerCall<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as BrokerClientError {
    throw CommandFailure(error)
  }
}

/// Writes a line to standard output at once (watch output goes to pipes).
func printLine(_ line: String) {
  Output.write(line + "\n")
}

/// One line of JSON for a change or a state.
func jsonLine(_ state: PasteboardState) -> String {
  Output.json(
    .object([
      ("pasteboard", .string(state.pasteboard)), ("changeCount", .integer(state.changeCount)),
      ("types", .strings(state.types)), ("concealed", .bool(state.concealed)),
    ]))
}

extension Ferry {
  /// `ferry watch`.
  struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract: "Print a line per change of the pasteboards (general and primary by default).",
      discussion:
        "Concealed copies are reported as such; their contents and types' data never appear.")

    @Option(
      name: [.customLong("pboard", withSingleDash: true), .customLong("pasteboard")],
      help: ArgumentHelp("A pasteboard to watch (repeatable).", valueName: "name"))
    var pasteboards: [String] = []
    @Flag(help: "Print one JSON object per line.")
    var json = false

    func run() throws {
      let client = try requireBroker("watch")
      try brokerCall {
        try client.watch(pasteboards.isEmpty ? nil : pasteboards) { state in
          if json {
            printLine(jsonLine(state))
          } else {
            let mark = state.concealed ? " (concealed)" : ""
            printLine(
              "\(state.pasteboard) \(state.changeCount)\(mark): \(state.types.joined(separator: ", "))"
            )
          }
          return true
        }
      }
    }
  }

  /// `ferry clear`.
  struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "clear", abstract: "Empty a pasteboard.")
    @OptionGroup var options: PasteboardOptions

    func run() throws {
      let client = try requireBroker("clear")
      _ = try brokerCall { try client.clear(options.pasteboard) }
    }
  }

  /// `ferry status`.
  struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Show the running broker's state.")
    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      let client = try requireBroker("status")
      let status = try brokerCall { try client.status() }
      if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(status), as: UTF8.self))
        return
      }
      print(
        "ferry \(status.version), pid \(status.pid), up \(Int(status.uptime)) s, socket \(status.socket)"
      )
      for line in Self.displayLines(status) { print(line) }
      print("clipboard manager: \(status.clipboardManager ? "yes" : "no")")
      if let history = status.history { print("history: \(Self.describe(history))") }
      for board in status.pasteboards {
        print(
          "\(board.pasteboard) \(board.changeCount)\(board.concealed ? " (concealed)" : ""): \(board.types.joined(separator: ", "))"
        )
      }
      if let links = status.sync {
        print("sync:")
        for line in SyncStatusText.lines(links, now: SyncStatusText.now) { print("  \(line)") }
      }
    }
  }
}

extension Ferry.StatusCommand {
  /// One line per display server the broker opened or was asked to — `Wayland display
  /// wayland-1: bridged (data-control)`, `X11 display :0: not bridged: the display server went
  /// away (ICCCM selections)`, `X11 display :0: bridged (ICCCM selections); connected again
  /// once, last after the display server went away`, `X11 display :0: bridged (ICCCM
  /// selections); GNOME (Mutter) through Xwayland` where the desktop is known — then, with two or more bridged, that each is bridged to the
  /// others; `no display: headless` with none.
  static func displayLines(_ status: StatusResponse) -> [String] {
    let displays = status.displayList
    guard !displays.isEmpty else { return ["no display: headless"] }
    var lines = displays.map { display in
      let state =
        display.bridged ? "bridged" : "not bridged: \(display.problem ?? "no reason given")"
      var line = "\(display.kind) display \(display.name): \(state) (\(display.protocol))"
      if let desktop = display.desktop { line += "; \(desktop)" }
      if display.bridged, let count = display.reconnections, count > 0 {
        line += "; connected again \(count == 1 ? "once" : "\(count) times")"
        if let loss = display.lastLoss { line += ", last after \(loss)" }
      }
      return line
    }
    let bridged = displays.filter(\.bridged).count
    if bridged > 1 { lines.append("the \(bridged) displays are bridged, each to the others") }
    if bridged == 0 { lines.append("no display bridged: headless, serving the socket only") }
    return lines
  }

  /// The history's line of `ferry status`: `31 entries (2 pinned), 47.1 KiB in …/history.sqlite`
  /// or `off: why`.
  static func describe(_ history: HistoryStatusSummary) -> String {
    guard history.enabled else { return "off: \(history.problem ?? "the broker does not say why")" }
    guard let entries = history.entries else {
      return "on, but its figures cannot be read: \(history.problem ?? "")"
    }
    let pinned = history.pinned.map { " (\($0) pinned)" } ?? ""
    let database = history.database.map { " in \($0)" } ?? ""
    return
      "\(entries) \(entries == 1 ? "entry" : "entries")\(pinned), \(HistoryText.size(history.bytes ?? 0))\(database)"
  }
}

extension Ferry {
  /// `ferry register`.
  struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "register",
      abstract:
        "Teach the broker types and conversions from a declaration file (docs/CONVERTERS.md).")
    @Argument(help: "The declaration file (JSON or property list).")
    var file: String
    @Flag(help: "Accept com.example identifiers (for the examples).")
    var allowExampleNamespace = false

    func run() throws {
      let client = try requireBroker("register")
      let problems = try brokerCall {
        try client.register(declarationAt: file, allowExampleNamespace: allowExampleNamespace)
      }
      for problem in problems { reportError("ferry", "warning: \(problem)") }
    }
  }
}
