import FerrySystem
import Logging
import NIOCore
import Pasteboard
import Synchronization

/// What every connection of a server shares: the broker's state the requests work on, and
/// what the socket adds (admission, the connections' count).
final class BrokerSocketContext: Sendable {
  /// The pasteboards, converters, history and spool the requests work on.
  let state: BrokerState
  private let connectionCounter = Atomic<Int>(0)
  /// The connections being served.
  let openConnections = Atomic<Int>(0)
  /// How many connections are served at once, and which gives way.
  let admission: ConnectionAdmission

  init(configuration: BrokerSocketServer.Configuration, spool: SpoolDirectory) {
    state = BrokerState(configuration: configuration, spool: spool)
    admission = ConnectionAdmission(
      limit: configuration.connectionLimit ?? ConnectionAdmission.limitForDescriptors())
  }

  /// The server's configuration.
  var configuration: BrokerSocketServer.Configuration { state.configuration }

  var logger: Logger { configuration.logger }

  /// A number for the next connection, for the log.
  func nextConnectionID() -> Int {
    connectionCounter.wrappingAdd(1, ordering: .relaxed).newValue
  }
}
