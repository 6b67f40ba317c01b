import ArgumentParser
import FerryBroker
import FerryProtocol
import FerryCommandLine
import Foundation
import Logging
import ClipboardHistory

extension Ferry {
  /// `ferry daemon`: the broker.
  struct DaemonCommand: ParsableCommand, AsyncParsableCommandRunner {
    static let configuration = CommandConfiguration(
      commandName: "daemon",
      abstract: "Run the broker: pasteboards, the socket, the X11 bridge and the clipboard manager.",
      discussion: """
        With DISPLAY, the general pasteboard is CLIPBOARD and primary is PRIMARY, and what \
        applications copy survives their exit. Without it, the broker serves the socket only. \
        One broker runs per user and display: a second start says so and exits 0; --replace \
        stops the running one and takes over.
        """)

    @Flag(help: "Stop a running broker and take over.")
    var replace = false
    @Flag(help: "Log every transfer.")
    var verbose = false
    @Option(help: ArgumentHelp("The most a new CLIPBOARD owner's data is copied at once, in MiB.", valueName: "MiB"))
    var captureLimit = 64
    @Option(help: ArgumentHelp("The display; $DISPLAY by default.", valueName: "name"))
    var display: String?
    @Flag(inversion: .prefixedNo, help: "Keep a clipboard history (FERRY_HISTORY=on|off; default on).")
    var history: Bool?
    @Flag(help: "Record PRIMARY (selected text) in the history too (FERRY_HISTORY_PRIMARY=1).")
    var historyPrimary = false
    @Option(help: ArgumentHelp("The most entries the history keeps (FERRY_HISTORY_ENTRIES; default 1000).", valueName: "count"))
    var historyEntries: Int?
    @Option(help: ArgumentHelp("The most bytes the history keeps, in MiB (FERRY_HISTORY_MIB; default 1024).", valueName: "MiB"))
    var historySize: Int?
    @Option(help: ArgumentHelp("The largest copy recorded, in MiB (FERRY_HISTORY_ITEM_MIB; default 256).", valueName: "MiB"))
    var historyItemSize: Int?

    func run() throws { var copy = self; try copy.runBlocking() }

    /// The history's settings: a flag wins over its environment variable, which wins over
    /// the default. A bad value is a usage error naming the variable.
    func historySettings(_ environment: [String: String]) throws -> HistorySettings {
      func number(_ variable: String, flag: Int?, default value: Int) throws -> Int {
        if let flag {
          guard flag > 0 else { throw CommandFailure("--\(optionName(variable)) must be a positive number", status: .usage) }
          return flag
        }
        guard let text = environment[variable], !text.isEmpty else { return value }
        guard let parsed = Int(text), parsed > 0 else {
          throw CommandFailure("\(variable)='\(text)' is not a positive whole number", status: .usage)
        }
        return parsed
      }
      func optionName(_ variable: String) -> String {
        ["FERRY_HISTORY_ENTRIES": "history-entries", "FERRY_HISTORY_MIB": "history-size", "FERRY_HISTORY_ITEM_MIB": "history-item-size"][variable] ?? variable
      }
      func switchValue(_ variable: String) throws -> Bool? {
        guard let text = environment[variable]?.lowercased(), !text.isEmpty else { return nil }
        switch text {
        case "1", "on", "yes", "true": return true
        case "0", "off", "no", "false": return false
        default: throw CommandFailure("\(variable)='\(text)' is not on or off", status: .usage)
        }
      }
      let limits = HistoryLimits(
        maximumEntries: try number("FERRY_HISTORY_ENTRIES", flag: historyEntries, default: 1000),
        maximumTotalBytes: Int64(try number("FERRY_HISTORY_MIB", flag: historySize, default: 1024)) << 20,
        maximumItemBytes: Int64(try number("FERRY_HISTORY_ITEM_MIB", flag: historyItemSize, default: 256)) << 20)
      return HistorySettings(
        enabled: try history ?? switchValue("FERRY_HISTORY") ?? true,
        recordsPrimary: try historyPrimary || (switchValue("FERRY_HISTORY_PRIMARY") ?? false),
        limits: limits)
    }

    mutating func runBlocking() throws {
      // Before any thread starts: large blocks freed are given back (docs/PERFORMANCE.md).
      HeapRelease.configure()
      let level: Logger.Level = verbose ? .debug : .info
      LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
      }
      var environment = ProcessInfo.processInfo.environment
      if let display { environment["DISPLAY"] = display }
      let configuration = BrokerDaemon.Configuration(
        displayName: environment["DISPLAY"], socket: SocketPath.resolve(environment: environment),
        captureLimit: captureLimit << 20, replace: replace, history: try historySettings(environment))
      let outcome = LockedBox<Result<BrokerDaemon.Outcome, any Error>?>(nil)
      let done = DispatchSemaphore(value: 0)
      Task {
        do { outcome.set(.success(try await BrokerDaemon.run(configuration))) } catch { outcome.set(.failure(error)) }
        done.signal()
      }
      done.wait()
      switch outcome.get() {
      case .success(.alreadyRunning(let pid)):
        reportError("ferry", "a broker is already running for this display (pid \(pid)); --replace takes over")
      case .success(.stopped), nil:
        break
      case .failure(let error as BrokerDaemonError):
        switch error {
        case .display: throw CommandFailure("\(error)", status: .noDisplayNoBroker)
        case .lock: throw CommandFailure("\(error)", status: .io)
        case .previousBrokerStayed: throw CommandFailure("\(error)", status: .timeout)
        }
      case .failure(let error):
        throw CommandFailure("\(error)", status: .io)
      }
    }
  }
}
