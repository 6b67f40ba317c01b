import FerrySystem
import Logging
import Pasteboard

/// What the broker's requests read and change, with no socket: its pasteboards, converters,
/// registrations, history, spool and limits.
///
/// Every connection of a server shares one (``BrokerSocketContext`` holds it); a test makes
/// its own and drives a ``BrokerRequestHandler`` over it directly.
///
/// ```swift
/// let state = BrokerState(configuration: configuration, spool: try SpoolDirectory())
/// let handler = BrokerRequestHandler(state: state, logger: logger)
/// ```
final class BrokerState: Sendable {
  /// The pasteboards, converters, registrations, history and limits, as the server was
  /// configured. Its socket's location is named by `status`, never opened here.
  let configuration: BrokerSocketServer.Configuration
  /// Where large representations written through the socket go.
  let spool: SpoolDirectory
  /// Each pasteboard's item's origin, and the clock, for `ferry sync`.
  let origins = ItemOrigins()
  /// What the `ferry sync` processes report of their links.
  let syncReports = SyncReports()
  /// Pasteboards used through the socket, in first-use order, for `status`.
  private let used = TrackedMutex<[Pasteboard.Name]>([])

  /// State over `configuration`'s pasteboards, spooling to `spool`.
  init(configuration: BrokerSocketServer.Configuration, spool: SpoolDirectory) {
    self.configuration = configuration
    self.spool = spool
  }

  /// The broker's log.
  var logger: Logger { configuration.logger }

  /// The pasteboard named `name`, remembered for `status`.
  func pasteboard(_ name: Pasteboard.Name) -> Pasteboard {
    used.withLock { if !$0.contains(name) { $0.append(name) } }
    return configuration.pasteboard(name)
  }

  /// The pasteboards used so far, in first-use order.
  var usedPasteboards: [Pasteboard.Name] { used.withLock { $0 } }
}
