import FerrySystem
import Logging
import NIOCore
import Pasteboard
import Synchronization

/// What every connection of a server shares.
final class BrokerSocketContext: Sendable {
  let configuration: BrokerSocketServer.Configuration
  let spool: SpoolDirectory
  /// Pasteboards used through the socket, in first-use order, for `status`.
  private let used = TrackedMutex<[Pasteboard.Name]>([])
  private let connectionCounter = Atomic<Int>(0)
  /// The connections being served.
  let openConnections = Atomic<Int>(0)
  /// How many connections are served at once, and which gives way.
  let admission: ConnectionAdmission

  init(configuration: BrokerSocketServer.Configuration, spool: SpoolDirectory) {
    self.configuration = configuration
    self.spool = spool
    admission = ConnectionAdmission(
      limit: configuration.connectionLimit ?? ConnectionAdmission.limitForDescriptors())
  }

  var logger: Logger { configuration.logger }

  /// The pasteboard named `name`, remembered for `status`.
  func pasteboard(_ name: Pasteboard.Name) -> Pasteboard {
    used.withLock { if !$0.contains(name) { $0.append(name) } }
    return configuration.pasteboard(name)
  }

  /// The pasteboards used so far.
  var usedPasteboards: [Pasteboard.Name] { used.withLock { $0 } }

  /// A number for the next connection, for the log.
  func nextConnectionID() -> Int {
    connectionCounter.wrappingAdd(1, ordering: .relaxed).newValue
  }
}
