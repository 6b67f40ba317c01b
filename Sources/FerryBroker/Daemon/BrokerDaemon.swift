import DisplayServers
import FerryProtocol
import FerrySystem
import ImageConversion
import Logging
import Pasteboard
import SelectionBackendCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// The broker: holds the pasteboards, serves them on the socket, and — with a display —
/// bridges `general` ↔ `CLIPBOARD` and `primary` ↔ `PRIMARY` and acts as the clipboard
/// manager.
///
/// ```swift
/// let outcome = try await BrokerDaemon.run(
///   BrokerDaemon.Configuration(environment: ProcessInfo.processInfo.environment))
/// ```
///
/// One broker runs per user and display: a second one finds the first through a lock file
/// next to the socket and stops (or, with `replace`, asks the first to stop and takes over).
public enum BrokerDaemon {
  /// How the daemon is set up.
  public struct Configuration: Sendable {
    /// The display servers the broker may bridge, in order: by default
    /// `DisplayServerTable.standard` (Wayland, X11). The broker opens every one whose
    /// variable ``environment`` sets; with none it runs headless (socket only).
    public var displayServers: [DisplayServerKind]
    /// Where each display server's variable is read (`DISPLAY`, `WAYLAND_DISPLAY`): the
    /// process's environment, with `ferry daemon --display` applied.
    public var environment: [String: String]
    /// The socket.
    public var socket: SocketPath
    /// How much of a new `CLIPBOARD` owner's data is copied at once, so that it survives the
    /// owner's exit.
    public var captureLimit: Int
    /// Take over from a running broker instead of leaving it be.
    public var replace: Bool
    /// How long the broker waits for each answer of an owner whose copy it takes.
    public var captureStepTimeout: Duration = .seconds(2)
    /// How long an X reader may take over each step of a large transfer the broker serves.
    public var servingStepTimeout: Duration = .seconds(5)
    /// The most pixels an image may have for the broker to convert it (`images.pixel-limit`).
    public var imagePixelLimit: Int = ImageConverter.defaultPixelLimit
    /// Where the daemon keeps what outlives it (registered declaration files):
    /// `$XDG_DATA_HOME/ferry`, by default `~/.local/share/ferry`. `nil` keeps nothing.
    public var dataDirectory: URL?
    /// What the clipboard history records and keeps (in ``dataDirectory``).
    public var history: HistorySettings
    /// Where the daemon logs.
    public var logger: Logger
    /// Called once the socket serves (after the readiness notification): what the daemon
    /// runs beside the broker (`ferry daemon`'s sync links) starts there, never for a broker
    /// that finds another one running.
    public var whenServing: (@Sendable () -> Void)?

    /// Creates a configuration that bridges the displays `environment` names.
    public init(
      environment: [String: String],
      displayServers: [DisplayServerKind] = DisplayServerTable.standard,
      socket: SocketPath = .resolve(), captureLimit: Int = 64 << 20,
      replace: Bool = false, dataDirectory: URL? = Configuration.defaultDataDirectory(),
      history: HistorySettings = HistorySettings(), logger: Logger = Logger(label: "ferry.daemon")
    ) {
      self.history = history
      self.dataDirectory = dataDirectory
      self.environment = environment
      self.displayServers = displayServers
      self.socket = socket
      self.captureLimit = captureLimit
      self.replace = replace
      self.logger = logger
    }

    /// Creates a configuration that bridges the X display `displayName` and the Wayland
    /// display `waylandDisplay` (`nil` or empty: none): the standard table with only these
    /// two variables set.
    public init(
      displayName: String?, waylandDisplay: String? = nil, socket: SocketPath = .resolve(),
      captureLimit: Int = 64 << 20,
      replace: Bool = false, dataDirectory: URL? = Configuration.defaultDataDirectory(),
      history: HistorySettings = HistorySettings(), logger: Logger = Logger(label: "ferry.daemon")
    ) {
      var environment: [String: String] = [:]
      environment[DisplayServerKind.x11.environmentVariable] = displayName
      environment[DisplayServerKind.wayland.environmentVariable] = waylandDisplay
      self.init(
        environment: environment, socket: socket, captureLimit: captureLimit, replace: replace,
        dataDirectory: dataDirectory, history: history, logger: logger)
    }
  }

  /// How a run ended.
  public enum Outcome: Sendable, Equatable {
    /// Stopped by a signal or a request.
    case stopped
    /// Another broker already serves this user and display.
    case alreadyRunning(pid: Int32)
  }

  /// Runs the broker until SIGTERM or SIGINT.
  ///
  /// - Throws: ``BrokerDaemonError`` or the socket server's errors.
  public static func run(_ configuration: Configuration) async throws -> Outcome {
    let logger = configuration.logger
    try configuration.socket.prepareDirectory()
    let lock = try InstanceLock(path: configuration.socket.path + ".lock")
    if case .heldBy(let pid) = lock.state {
      guard configuration.replace else { return .alreadyRunning(pid: pid) }
      logger.info("replacing the broker with pid \(pid)")
      try lock.takeOver(from: pid)
    }
    defer { lock.release() }

    var displays = try await openBackends(configuration, logger: logger)
    let names = displays.opened.map { "\($0.kind.name) display \($0.display)" }.joined(
      separator: " and ")
    let options = DisplayServerKind.Options(servingStepTimeout: configuration.servingStepTimeout)
    let state = DaemonState(
      supervisors: displays.opened.map {
        DisplaySupervisor(kind: $0.kind, display: $0.display, options: options, logger: logger)
      }, refused: displays.refused)
    var serverConfiguration = BrokerSocketServer.Configuration(
      location: configuration.socket, status: state, logger: logger)
    // Images are offered in every format the broker converts to (docs/CONVERTERS.md).
    let converters = serverConfiguration.converters
    if !converters.converters.contains(where: { $0 is ImageConverter }) {
      converters.register(ImageConverter(pixelLimit: configuration.imagePixelLimit))
    }
    // Registered types first: a restored copy may need their conversions.
    if let data = configuration.dataDirectory {
      do {
        let kept = try RegisteredDeclarations(dataDirectory: data)
        let loaded = kept.load(into: serverConfiguration.converters, logger: logger)
        if loaded > 0 {
          logger.info("loaded \(loaded) registered declaration file(s) from \(kept.directory.path)")
        }
        serverConfiguration.registrations = kept
      } catch {
        logger.error(
          "cannot use the data directory \(data.path): \(error); registrations last until the broker stops"
        )
      }
    }
    let history = openHistory(configuration, state: state)
    serverConfiguration.history = history
    var bridgeTasks: [Task<Void, Never>] = []
    // X11 and Wayland bridged: a copy one records may come back to the other through the
    // compositor's own bridge (BridgeEchoes).
    let echoes = displays.opened.count > 1 ? BridgeEchoes() : nil
    if let images = converters.converters.lazy.compactMap({ $0 as? ImageConverter }).first {
      bridgeTasks.append(Task { await Self.prepareImages(of: .general, with: images) })
    }
    let bridging = DisplayBridging(
      configuration: configuration, history: history, echoes: echoes, state: state,
      logger: logger)
    for (opened, supervisor) in zip(displays.opened, state.supervisors) {
      // The first connection's bindings are up before the history's copy is restored.
      let first = try await bridging.bridge(opened.backend, resuming: false)
      supervisor.install(opened.backend, bridge: first)
      bridgeTasks.append(
        Task {
          await supervisor.run { backend in
            do {
              return try await bridging.bridge(backend, resuming: true)
            } catch {
              logger.error("the display's new connection is not bridged: \(error)")
              return DisplaySupervisor.Bridge()
            }
          }
        })
    }
    // The supervisors hold the connections now: a lost one is freed, descriptors and all,
    // once its supervisor lets it go.
    displays.opened.removeAll()

    if let history {
      for name in history.settings.recordedPasteboards {
        let board = Pasteboard.named(Pasteboard.Name(rawValue: name))
        bridgeTasks.append(Task { await history.follow(board) })
      }
      let general = state.supervisors.lazy.flatMap(\.bindings).first {
        $0.pasteboard.name == .general
      }
      await restoreNewest(from: history, binding: general, logger: logger)
    }
    // A write is acknowledged once its copy is on the selection (see PublicationGate).
    // Without the display (it went away, and is not back yet) there is no selection to wait
    // for.
    serverConfiguration.publication = { [state] name, count in
      for supervisor in state.supervisors where supervisor.isBridged {
        for binding in supervisor.bindings where binding.pasteboard.name == name {
          _ = await binding.published.wait(for: count, within: SelectionBinding.publicationTimeout)
        }
      }
    }
    serverConfiguration.trimsHeapWhenIdle = true
    let server = try await BrokerSocketServer.bind(serverConfiguration)
    logger.info("listening on \(server.path)\(names.isEmpty ? "" : " for \(names)")")
    let serving = Task { try await server.serve() }
    ServiceReadiness.notifyReady(status: "serving \(server.path)")
    configuration.whenServing?()
    await SignalWaiter.waitForTermination()
    logger.info("stopping")
    bridgeTasks.forEach { $0.cancel() }
    state.supervisors.forEach { $0.close() }
    await server.close()
    serving.cancel()
    // The server removes its socket file as it ends: wait for it, or the file stays behind.
    _ = try? await serving.value
    return .stopped
  }
}

extension BrokerDaemon {
  /// Opens the history the configuration asks for; `nil`, with the reason in `state` and the
  /// log, when it is off or cannot be opened (the broker runs without it).
  static func openHistory(_ configuration: Configuration, state: DaemonState) -> BrokerHistory? {
    guard configuration.history.enabled else {
      state.setHistoryProblem("history.enabled is false")
      return nil
    }
    guard let data = configuration.dataDirectory else {
      state.setHistoryProblem("no data directory (neither XDG_DATA_HOME nor HOME is set)")
      return nil
    }
    do {
      let history = try BrokerHistory(
        directory: data, settings: configuration.history, logger: configuration.logger)
      history.removeRestoredLinks()
      return history
    } catch {
      configuration.logger.error("the clipboard history is off: \(error)")
      state.setHistoryProblem("\(error)")
      return nil
    }
  }

  /// Puts the newest `general` entry back on the clipboard, as clipboard managers do after a
  /// login — on `CLIPBOARD` only if nobody owns it by then (``SelectionBinding/restore(_:)``).
  static func restoreNewest(from history: BrokerHistory, binding: SelectionBinding?, logger: Logger)
    async
  {
    guard Pasteboard.general.items.isEmpty, let item = await history.newestItem(of: .general) else {
      return
    }
    if let binding {
      guard await binding.restore(item) else { return }
    } else {
      _ = Pasteboard.general.write([item])
    }
    logger.info(
      "restored the newest clipboard entry (\(item.storedTypes.count) types) from the history")
  }
}

/// What `ferry status` reports, kept current by the daemon.
final class DaemonState: BrokerStatusProvider {
  private let started = ContinuousClock.now
  /// The displays opened at start, each across its connections.
  let supervisors: [DisplaySupervisor]
  private let refused: [DisplayStatus]
  private let manager = TrackedMutex(false)

  init(supervisors: [DisplaySupervisor], refused: [DisplayStatus] = []) {
    self.supervisors = supervisors
    self.refused = refused
  }

  func setManager(_ value: Bool) { manager.withLock { $0 = value } }

  private let historyProblemText = TrackedMutex<String?>(nil)
  /// Why the history is off (a reason, without "off"), for `ferry status` and the history
  /// operations' refusal; `nil` while it records.
  var historyProblem: String? { historyProblemText.withLock { $0 } }
  func setHistoryProblem(_ text: String) { historyProblemText.withLock { $0 = text } }

  func status() async -> BrokerStatus {
    BrokerStatus(
      uptime: ContinuousClock.now - started, displays: supervisors.map(\.status) + refused,
      clipboardManager: manager.withLock { $0 }, historyProblem: historyProblem)
  }
}

/// Why the daemon could not start.
public enum BrokerDaemonError: Error, CustomStringConvertible, Sendable {
  /// The display could not be opened.
  case display(String)
  /// The instance lock could not be taken.
  case lock(String)
  /// `--replace`: the running broker did not stop when asked.
  case previousBrokerStayed(String)

  /// One line naming the problem.
  public var description: String {
    switch self {
    case .display(let reason): reason
    case .lock(let reason): reason
    case .previousBrokerStayed(let reason): reason
    }
  }
}

extension BrokerDaemon.Configuration {
  /// `$XDG_DATA_HOME/ferry`, or `~/.local/share/ferry`; `nil` when neither is set.
  ///
  /// Data, not state: what is kept here (registrations, the history) is the user's and
  /// worth a backup, as CopyQ keeps its tabs under `~/.local/share/copyq`.
  public static func defaultDataDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL? {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent(
        "ferry", isDirectory: true)
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
      ".local/share/ferry", isDirectory: true)
  }
}
