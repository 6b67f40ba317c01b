import FerryProtocol
import Logging
import Pasteboard

/// Answers one connection's requests: each operation of docs/PROTOCOL.md as a function of the
/// decoded request and the broker's state, with no socket.
///
/// The connection decodes each REQUEST frame, calls the function for its operation and sends
/// what it returns as the RESPONSE. Operations that carry or answer with data take the
/// connection's frames: `write`, `register` and `watch` a ``RequestFrameStream``, `read` and
/// `historyShow` a ``FrameSink`` their bytes stream to. A refusal is thrown as a
/// ``ProtocolFailure``, which the connection sends as the ERROR frame (and closes after when
/// the failure says so); ``ConnectionEnded`` when the client closes midway.
///
/// ```swift
/// let handler = BrokerRequestHandler(state: state, logger: logger, clientName: "pbcopy")
/// let answer = try await handler.types(TypesRequest(pasteboard: "general"))
/// try await handler.read(ReadRequest(types: ["public.utf8-plain-text"]), answeringTo: sink)
/// ```
struct BrokerRequestHandler: Sendable {
  /// The pasteboards, converters, history and spool the requests work on.
  let state: BrokerState
  /// The connection's log.
  var logger: Logger
  /// The client's name from its hello (`pbcopy`, `ferry copy`), a history entry's source.
  var clientName: String?

  /// A handler of requests over `state`, logging to `logger`, for the client `clientName`.
  init(state: BrokerState, logger: Logger, clientName: String? = nil) {
    self.state = state
    self.logger = logger
    self.clientName = clientName
  }

  /// The server's configuration: limits, thread pool, history, converters.
  var configuration: BrokerSocketServer.Configuration { state.configuration }

  /// How long a reader waits for a write on its way — an X owner's offer being captured —
  /// before it is told the pasteboard is busy. A capture's steps time out after 2 s each.
  static let settleLimit: Duration = .seconds(10)

  /// The pasteboard named `name` once no announced write is pending: a reader is answered
  /// from the new owner's copy, never from the item it replaces.
  ///
  /// - Throws: ``ProtocolFailure``: `badRequest` for a bad name, `timeout` when the write
  ///   on its way takes longer than ``settleLimit``.
  func settledPasteboard(_ name: String?) async throws -> Pasteboard {
    let board = state.pasteboard(try Self.pasteboardName(name))
    guard await board.settle(within: Self.settleLimit) else {
      throw ProtocolFailure.refusal(
        .timeout,
        "the \(board.name.rawValue) pasteboard is still copying a new owner's offer after \(Self.settleLimit)"
      )
    }
    return board
  }
}
