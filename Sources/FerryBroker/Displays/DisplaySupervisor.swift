import FerryProtocol
import FerrySystem
import Logging
import SelectionBackendCore

/// One display server the broker bridges, across its connections: it bridges the connection
/// it is given, and when the display server goes away (Xwayland stopped, a compositor
/// restarted, a nested session's X server gone) it stops that connection's bindings, says so
/// in status, and connects again through its row of the table, with back-off, until it is
/// back or the broker stops. The pasteboards and the history are the broker's, not the
/// connection's: nothing of them changes, and the display's new connection serves the
/// pasteboard's copy again if nobody took the selection meanwhile
/// (``SelectionBinding/run(resuming:)``).
///
/// ```swift
/// let supervisor = DisplaySupervisor(kind: .x11, display: ":0", options: options, logger: log)
/// supervisor.install(backend, bridge: try await bridging.bridge(backend, resuming: false))
/// await supervisor.run { backend in await bridge(backend) }
/// ```
final class DisplaySupervisor: Sendable {
  /// What the broker runs on one connection: its bindings, by pasteboard, and the tasks that
  /// run them.
  struct Bridge: Sendable {
    /// The connection's bindings.
    var bindings: [SelectionBinding] = []
    /// The tasks that run them, cancelled when the connection is lost.
    var tasks: [Task<Void, Never>] = []
  }

  /// Starts the broker's bindings on a connection made again, whose bindings serve the
  /// pasteboards' copies again.
  typealias Bridging = @Sendable (_ backend: any SelectionBackend) async -> Bridge

  /// The display server's row of the table.
  let kind: DisplayServerKind
  /// The display: `:0`, `wayland-1`.
  let display: String

  private struct State: Sendable {
    var backend: (any SelectionBackend)?
    var bridge = Bridge()
    /// Why the display is not bridged now; `nil` while it is.
    var problem: String?
    /// How many times the display was connected again.
    var reconnections = 0
    /// Why the display last went away, once it has.
    var lastLoss: String?
    /// The broker is stopping: no connection is made again.
    var closed = false
    /// The desktop the display belongs to, as the backend named it once connected.
    var desktop: String?
  }

  private let state = TrackedMutex(State())
  private let options: DisplayServerKind.Options
  private let backoff: ReconnectionBackoff
  private let pause: @Sendable (Duration) async throws -> Void
  private let logger: Logger

  /// A supervisor of `display`, a display server of `kind`, that waits between attempts to
  /// connect again on `clock` (a test's `ManualClock`; the timer thread's by default).
  init<C: Clock>(
    kind: DisplayServerKind, display: String, options: DisplayServerKind.Options,
    backoff: ReconnectionBackoff = ReconnectionBackoff(), clock: C, logger: Logger
  ) where C.Duration == Duration {
    self.kind = kind
    self.display = display
    self.options = options
    self.backoff = backoff
    self.logger = logger
    pause = { try await clock.sleep(for: $0) }
  }

  /// A supervisor that waits between attempts on the timer thread.
  convenience init(
    kind: DisplayServerKind, display: String, options: DisplayServerKind.Options,
    backoff: ReconnectionBackoff = ReconnectionBackoff(), logger: Logger
  ) {
    self.init(
      kind: kind, display: display, options: options, backoff: backoff, clock: .timerThread,
      logger: logger)
  }

  /// Takes `backend`, a connection bridged by `bridge`, as the display's connection now.
  ///
  /// - Returns: `false` when the supervisor was closed: the bridge is stopped and the
  ///   connection closed.
  @discardableResult
  func install(_ backend: any SelectionBackend, bridge: Bridge) -> Bool {
    let open = state.withLock { state -> Bool in
      guard !state.closed else { return false }
      state.backend = backend
      state.bridge = bridge
      state.problem = nil
      return true
    }
    if open {
      Task { [self] in
        let desktop = await backend.desktopName()
        state.withLock { if $0.backend === backend { $0.desktop = desktop } }
      }
    }
    if !open {
      bridge.tasks.forEach { $0.cancel() }
      backend.close()
    }
    return open
  }

  /// Watches the installed connection and, each time it is lost, connects again and
  /// bridges the new connection with `bridging`, until the task is cancelled or ``close()``.
  func run(bridging: Bridging) async {
    while let backend = state.withLock({ $0.backend }) {
      guard await Self.waitForLoss(of: backend) else { return }  // cancelled
      lost(backend)
      guard let again = await connectAgain() else { return }
      guard install(again, bridge: await bridging(again)) else { return }
    }
  }

  /// The connection's bindings now (none while the display is away).
  var bindings: [SelectionBinding] { state.withLock { $0.bridge.bindings } }

  /// Whether the display is bridged now.
  var isBridged: Bool { state.withLock { $0.backend != nil && $0.problem == nil } }

  /// The display as `ferry status` shows it.
  var status: DisplayStatus {
    state.withLock { state in
      DisplayStatus(
        kind: kind.name, name: display, protocol: kind.protocolName,
        bridged: state.backend != nil && state.problem == nil, problem: state.problem,
        reconnections: state.reconnections == 0 ? nil : state.reconnections,
        lastLoss: state.lastLoss, desktop: state.desktop)
    }
  }

  /// Stops bridging: the connection's bindings stop, the connection closes, and none is made
  /// again.
  func close() {
    let (backend, bridge) = state.withLock { state in
      state.closed = true
      defer {
        state.backend = nil
        state.bridge = Bridge()
      }
      return (state.backend, state.bridge)
    }
    bridge.tasks.forEach { $0.cancel() }
    backend?.close()
  }

  /// Waits until `backend`'s connection is lost: `false` when the task was cancelled first.
  private static func waitForLoss(of backend: any SelectionBackend) async -> Bool {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    backend.onConnectionLost {
      continuation.yield()
      continuation.finish()
    }
    for await _ in stream { return true }
    return false
  }

  /// `backend`'s connection was lost: its bindings stop (without waiting for calls into the
  /// dead connection), it is closed, and status says why.
  private func lost(_ backend: any SelectionBackend) {
    let failure = backend.connectionFailure
    let problem = "the display server went away" + (failure.map { ": \($0)" } ?? "")
    let bridge = state.withLock { state in
      defer {
        state.backend = nil
        state.bridge = Bridge()
        state.problem = problem
        state.lastLoss = problem
      }
      return state.bridge
    }
    bridge.tasks.forEach { $0.cancel() }
    backend.close()
    let reason = failure.map { ": \($0)" } ?? ""
    logger.error(
      "the display went away (\(kind.name) \(display)\(reason)); serving the socket and any other display, and connecting again"
    )
  }

  /// Connects again through the table's row, waiting longer after each failed attempt:
  /// the new connection, or `nil` when the task was cancelled or the supervisor closed.
  private func connectAgain() async -> (any SelectionBackend)? {
    let lostAt = ContinuousClock.now
    var attempt = 0
    while true {
      attempt += 1
      do {
        try await pause(backoff.delay(beforeAttempt: attempt))
      } catch {
        return nil
      }
      guard !state.withLock({ $0.closed }) else { return nil }
      do {
        let backend = try await kind.connect(display, options)
        let count = state.withLock { state -> Int in
          state.reconnections += 1
          return state.reconnections
        }
        logger.notice(
          "connected to \(kind.name) \(display) again (attempt \(attempt), \(lostAt.duration(to: .now)) after it went; \(count) time(s) since the broker started)"
        )
        return backend
      } catch {
        let problem = (state.withLock { $0.lastLoss } ?? "the display server went away")
        state.withLock {
          $0.problem = "\(problem); connecting again (attempt \(attempt) failed: \(error))"
        }
        logger.debug("cannot connect to \(kind.name) \(display) again yet: \(error)")
      }
    }
  }
}
