import ArgumentParser
import ClipboardHistory
import Dispatch
import FerryBroker
import FerryCommandLine
import FerryConfiguration
import FerryProtocol
import Logging

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry daemon`: the broker.
  struct DaemonCommand: ParsableCommand, AsyncParsableCommandRunner {
    static let configuration = CommandConfiguration(
      commandName: "daemon",
      abstract:
        "Run the broker: pasteboards, the socket, the X11 bridge and the clipboard manager.",
      discussion: """
        With DISPLAY, the general pasteboard is CLIPBOARD and primary is PRIMARY, and what \
        applications copy survives their exit. Without it, the broker serves the socket only. \
        One broker runs per user and display: a second start says so and exits 0; --replace \
        stops the running one and takes over.

        Settings come from ~/.config/ferry/config (see `ferry config`); an environment \
        variable wins over the file and a flag over both. A wrong setting is one line naming \
        the file, line and key, and the daemon does not start (status 2).
        """)

    @Option(
      name: .customLong("config"),
      help: ArgumentHelp(
        "The configuration file ($FERRY_CONFIG, else $XDG_CONFIG_HOME/ferry/config).",
        valueName: "file"))
    var configurationFile: String?
    @Flag(help: "Stop a running broker and take over.")
    var replace = false
    @Flag(help: "Log every transfer (--log-level debug).")
    var verbose = false
    @Option(help: ArgumentHelp(.logLevel, valueName: "level"))
    var logLevel: String?
    @Option(help: ArgumentHelp(.captureLimit, valueName: "MiB"))
    var captureLimit: String?
    @Option(help: ArgumentHelp("The display; $DISPLAY by default.", valueName: "name"))
    var display: String?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(.historyEnabled))
    var history: Bool?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(.historyPrimary))
    var historyPrimary: Bool?
    @Option(help: ArgumentHelp(.historyEntries, valueName: "count"))
    var historyEntries: String?
    @Option(help: ArgumentHelp(.historySize, valueName: "MiB"))
    var historySize: String?
    @Option(help: ArgumentHelp(.historyItemSize, valueName: "MiB"))
    var historyItemSize: String?
    @Option(help: ArgumentHelp(.historyIgnore, valueName: "name"))
    var historyIgnore: [String] = []
    @Option(help: ArgumentHelp(.captureTimeout, valueName: "seconds"))
    var captureTimeout: String?
    @Option(help: ArgumentHelp(.serveTimeout, valueName: "seconds"))
    var serveTimeout: String?
    @Option(help: ArgumentHelp(.imagesPixelLimit, valueName: "megapixels"))
    var imagesPixelLimit: String?
    @Option(help: ArgumentHelp(.syncHosts, valueName: "host"))
    var syncHost: [String] = []
    @Option(help: ArgumentHelp(.syncMaxSize, valueName: "MiB"))
    var syncMaxSize: String?
    @Option(help: ArgumentHelp(.syncExclude, valueName: "type"))
    var syncExclude: [String] = []
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(.syncPrimary))
    var syncPrimary: Bool?

    func run() throws {
      var copy = self
      try copy.runBlocking()
    }

    /// The flags given, checked against their keys.
    ///
    /// - Throws: ``CommandFailure`` (usage) naming the flag and what it takes.
    func flagValues() throws -> [ConfigurationKey: ConfigurationValue] {
      var texts: [ConfigurationKey: String] = [:]
      texts[.logLevel] = logLevel ?? (verbose ? "debug" : nil)
      texts[.captureLimit] = captureLimit
      texts[.historyEnabled] = history.map { "\($0)" }
      texts[.historyPrimary] = historyPrimary.map { "\($0)" }
      texts[.historyEntries] = historyEntries
      texts[.historySize] = historySize
      texts[.historyItemSize] = historyItemSize
      texts[.historyIgnore] = historyIgnore.isEmpty ? nil : historyIgnore.joined(separator: ",")
      texts[.captureTimeout] = captureTimeout
      texts[.serveTimeout] = serveTimeout
      texts[.imagesPixelLimit] = imagesPixelLimit
      texts[.syncHosts] = syncHost.isEmpty ? nil : syncHost.joined(separator: ",")
      texts[.syncMaxSize] = syncMaxSize
      texts[.syncExclude] = syncExclude.isEmpty ? nil : syncExclude.joined(separator: ",")
      texts[.syncPrimary] = syncPrimary.map { "\($0)" }
      var values: [ConfigurationKey: ConfigurationValue] = [:]
      for (key, text) in texts {
        guard let value = key.value(from: text) else {
          throw CommandFailure(
            "\(key.flag ?? key.name): '\(text)' is not \(key.expected)", status: .usage)
        }
        values[key] = value
      }
      return values
    }

    /// Everything the daemon is told: the file, the environment and the flags.
    func effectiveConfiguration(_ environment: [String: String]) throws -> EffectiveConfiguration {
      do {
        return try EffectiveConfiguration.load(
          path: configurationFile, environment: environment, flags: try flagValues())
      } catch let error as ConfigurationError {
        throw CommandFailure(error.message, status: .usage)
      }
    }

    mutating func runBlocking() throws {
      // Before any thread or task starts (docs/PERFORMANCE.md, "Memory", "Daemon at rest").
      BrokerDaemon.prepareProcess()
      var environment = ProcessInfo.processInfo.environment
      if let display { environment["DISPLAY"] = display }
      let settings = try effectiveConfiguration(environment)
      let level = Logger.Level(rawValue: settings.word(.logLevel)) ?? .info
      LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
      }
      var configuration = BrokerDaemon.Configuration(
        environment: environment, socket: SocketPath.resolve(environment: environment),
        captureLimit: settings.number(.captureLimit) << 20, replace: replace,
        history: Self.history(settings))
      configuration.captureStepTimeout = settings.duration(.captureTimeout)
      configuration.servingStepTimeout = settings.duration(.serveTimeout)
      configuration.imagePixelLimit = settings.number(.imagesPixelLimit) * 1_000_000
      if let path = settings.filePath {
        configuration.logger.debug("configuration read from \(path)")
      }
      let hosts = settings.names(.syncHosts)
      if !hosts.isEmpty {
        let keeper = SyncKeeper(
          hosts: hosts, socket: configuration.socket, environment: environment,
          settings: SyncKeeper.settingVariables(settings), logger: configuration.logger)
        configuration.whenServing = { keeper.start() }
      }
      let outcome = LockedBox<Result<BrokerDaemon.Outcome, any Error>?>(nil)
      let done = DispatchSemaphore(value: 0)
      Task { [configuration] in
        do { outcome.set(.success(try await BrokerDaemon.run(configuration))) } catch {
          outcome.set(.failure(error))
        }
        done.signal()
      }
      done.wait()
      switch outcome.get() {
      case .success(.alreadyRunning(let pid)):
        reportError(
          "ferry", "a broker is already running for this display (pid \(pid)); --replace takes over"
        )
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

    /// The history's settings from the configuration.
    static func history(_ settings: EffectiveConfiguration) -> HistorySettings {
      HistorySettings(
        enabled: settings.toggle(.historyEnabled),
        recordsPrimary: settings.toggle(.historyPrimary),
        limits: HistoryLimits(
          maximumEntries: settings.number(.historyEntries),
          maximumTotalBytes: Int64(settings.number(.historySize)) << 20,
          maximumItemBytes: Int64(settings.number(.historyItemSize)) << 20),
        ignoredSources: settings.names(.historyIgnore))
    }
  }
}
