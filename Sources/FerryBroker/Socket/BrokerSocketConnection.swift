import FerryProtocol
import FerrySystem
import Logging
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One client connection: checks the peer, says hello, then passes requests in order to its
/// ``BrokerRequestHandler`` until the client closes, following docs/PROTOCOL.md.
///
/// The connection frames and schedules; what a request does is the handler's. It decodes
/// each REQUEST frame into its operation's message, calls the handler, and sends the answer
/// it returns (operations that stream data send through ``ConnectionFrames`` themselves).
/// Requests on one connection run one at a time; connections run concurrently. A request
/// the broker refuses gets an ERROR frame and the connection goes on; a frame that breaks
/// the protocol gets an ERROR frame and the connection closes. Nothing here ends the server.
struct BrokerSocketConnection {
  /// What every connection of the server shares.
  let context: BrokerSocketContext
  /// The accepted channel, for the last frame's flush.
  let channel: any Channel
  /// The frames both ways.
  var frames: ConnectionFrames
  /// The connection's place among those served: idle between requests, when it may give way
  /// to a new connection.
  let ticket: ConnectionAdmission.Ticket
  /// What answers the requests; it learns the client's name from the hello.
  var handler: BrokerRequestHandler
  /// The connection's log, with the client's name once it said hello.
  var logger: Logger { handler.logger }

  /// Serves a connection to its end, then closes it.
  static func serve(
    _ channel: any Channel, peer: PeerCredentials?, ticket: ConnectionAdmission.Ticket,
    context: BrokerSocketContext
  ) async {
    var logger = context.logger
    logger[metadataKey: "connection"] = "\(context.nextConnectionID())"
    if let peer { logger[metadataKey: "peer"] = "\(peer)" }
    let connection: NIOAsyncChannel<Frame, ByteBuffer>
    do {
      connection = try await wrap(channel)
    } catch {
      logger.debug("connection lost before it was served", metadata: ["error": "\(error)"])
      channel.close(promise: nil)
      return
    }
    do {
      try await connection.executeThenClose { inbound, outbound in
        var session = BrokerSocketConnection(
          context: context, channel: connection.channel,
          frames: ConnectionFrames(inbound: inbound.makeAsyncIterator(), sink: outbound),
          ticket: ticket, handler: BrokerRequestHandler(state: context.state, logger: logger))
        await session.run(peer: peer)
      }
    } catch {
      logger.debug("connection closed with an error", metadata: ["error": "\(error)"])
    }
  }

  /// Puts the frame decoder and the async wrapper on an accepted channel, then lets it read.
  static func wrap(_ channel: any Channel) async throws -> NIOAsyncChannel<Frame, ByteBuffer> {
    try await channel.eventLoop.submit {
      try channel.pipeline.syncOperations.addHandler(
        ByteToMessageHandler(BrokerSocketFrameDecoder()))
      let connection = try NIOAsyncChannel<Frame, ByteBuffer>(
        wrappingChannelSynchronously: channel,
        configuration: .init(backPressureStrategy: .init(lowWatermark: 1, highWatermark: 2)))
      try channel.syncOptions?.setOption(.autoRead, value: true)
      return connection
    }.get()
  }

  /// The connection's life: admission, hello, requests.
  mutating func run(peer: PeerCredentials?) async {
    do {
      try admit(peer)
      try await greet()
      while let frame = try await nextRequest() {
        guard frame.kind == .request else {
          throw ProtocolFailure.fatal(.badRequest, "expected a REQUEST frame, got \(frame.kind)")
        }
        do {
          try await handle(frame)
        } catch let failure as ProtocolFailure where !failure.closesConnection {
          logger.debug(
            "refused", metadata: ["code": "\(failure.code)", "reason": "\(failure.message)"])
          try await send(.error, failure.body)
        }
      }
      logger.debug("client closed the connection")
    } catch let failure as ProtocolFailure {
      logger.notice(
        "closing the connection",
        metadata: ["code": "\(failure.code)", "reason": "\(failure.message)"])
      await sendFinal(failure.body)
    } catch is ConnectionEnded {
      logger.debug("client closed the connection in the middle of a request")
    } catch is CancellationError {
      logger.debug("connection cancelled")
    } catch {
      logger.debug("connection failed", metadata: ["error": "\(error)"])
    }
  }

  private func admit(_ peer: PeerCredentials?) throws(ProtocolFailure) {
    guard let peer else {
      throw .fatal(.forbidden, "the peer's credentials cannot be read; refusing the connection")
    }
    if case .refuse(let reason) = peer.admission(byUserID: context.configuration.peerUID) {
      throw .fatal(.forbidden, reason)
    }
  }

  private mutating func greet() async throws {
    guard let frame = try await nextRequest() else { throw ConnectionEnded() }
    guard frame.kind == .request, let hello = try? frame.decodeJSON(HelloRequest.self),
      hello.op == .hello
    else {
      throw ProtocolFailure.fatal(
        .badRequest,
        "the first frame must be REQUEST {\"op\":\"hello\",\"version\":\(WireProtocol.version)}")
    }
    guard hello.version == WireProtocol.version else {
      throw ProtocolFailure.fatal(
        .unsupportedVersion,
        "protocol version \(hello.version) is not supported; this broker speaks version \(WireProtocol.version)"
      )
    }
    if let client = hello.client {
      handler.logger[metadataKey: "client"] = "\(client)"
      handler.clientName = client
    }
    try await send(.response, HelloResponse(version: WireProtocol.version, pid: getpid()))
  }

  private mutating func handle(_ frame: Frame) async throws {
    guard let head = try? frame.decodeJSON(RequestHead.self) else {
      throw ProtocolFailure.fatal(
        .badRequest, "the REQUEST body is not a JSON object with an \"op\"")
    }
    guard let op = BrokerOperation(rawValue: head.op) else {
      throw ProtocolFailure.fatal(
        .badRequest,
        "unknown operation \"\(head.op)\" (known: \(BrokerOperation.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    let handler = self.handler
    switch op {
    case .hello:
      throw ProtocolFailure.refusal(.badRequest, "hello was already said on this connection")
    case .write:
      let outcome = try await handler.write(
        try request(WriteRequest.self, from: frame), frames: &frames)
      if case .written(let answer) = outcome { try await respond(answer) }
    case .read:
      try await handler.read(try request(ReadRequest.self, from: frame), answeringTo: frames.sink)
    case .types:
      try await respond(try await handler.types(try request(TypesRequest.self, from: frame)))
    case .watch:
      try await handler.watch(try request(WatchRequest.self, from: frame), frames: &frames)
    case .clear: try await respond(try handler.clear(try request(ClearRequest.self, from: frame)))
    case .register:
      try await respond(
        try await handler.register(try request(RegisterRequest.self, from: frame), frames: &frames))
    case .status: try await respond(await handler.status())
    case .syncReport:
      try await respond(handler.syncReport(try request(SyncReportRequest.self, from: frame)))
    case .historyList:
      try await respond(
        try await handler.historyList(try request(HistoryListRequest.self, from: frame)))
    case .historySearch:
      try await respond(
        try await handler.historySearch(try request(HistorySearchRequest.self, from: frame)))
    case .historyShow:
      try await handler.historyShow(
        try request(HistoryShowRequest.self, from: frame), answeringTo: frames.sink)
    case .historyRestore:
      try await respond(
        try await handler.historyRestore(try request(HistoryRestoreRequest.self, from: frame)))
    case .historyDelete:
      try await respond(
        try await handler.historyDelete(try request(HistoryDeleteRequest.self, from: frame)))
    case .historyClear:
      try await respond(
        try await handler.historyClear(try request(HistoryClearRequest.self, from: frame)))
    case .historyPin, .historyUnpin:
      try await respond(
        try await handler.historyPin(try request(HistoryPinRequest.self, from: frame)))
    }
  }

  private func request<T: BrokerRequest>(_ type: T.Type, from frame: Frame) throws(ProtocolFailure)
    -> T
  {
    do {
      return try frame.decodeJSON(type)
    } catch {
      throw .fatal(.badRequest, "malformed \(type) body: \(Self.describe(error))")
    }
  }

  // MARK: - Frames

  /// The frame that starts the next request, `nil` at a clean end of the stream; the
  /// connection is idle while it waits.
  private mutating func nextRequest() async throws -> Frame? {
    ticket.idle()
    defer { ticket.busy() }
    return try await frames.nextFrame()
  }

  /// Sends a JSON frame.
  func send(_ kind: Frame.Kind, _ value: some Encodable) async throws {
    try await frames.sink.send(kind, value)
  }

  /// Sends `answer` as the RESPONSE.
  private func respond(_ answer: some Encodable) async throws {
    try await send(.response, answer)
  }

  /// Sends the last frame of a connection and waits (a little) for it to leave, so that
  /// closing the channel does not drop it.
  private func sendFinal(_ error: ErrorBody) async {
    do {
      try await send(.error, error)
      // An empty write completes once everything queued before it has been written.
      let barrier = channel.eventLoop.makePromise(of: Void.self)
      channel.writeAndFlush(ByteBuffer(), promise: barrier)
      _ = try? await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await barrier.futureResult.get() }
        group.addTask { try await Task.sleep(for: .seconds(2), clock: .timerThread) }
        try await group.next()
        group.cancelAll()
      }
    } catch {
      logger.debug("the final ERROR frame could not be sent", metadata: ["error": "\(error)"])
    }
  }

  // MARK: - Decoding

  /// An error in one line, without the noise of `DecodingError`'s description.
  static func describe(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
      let joined = keys.joined()
      guard let first = joined.firstIndex(where: { $0 != "." }),
        let last = joined.lastIndex(where: { $0 != "." })
      else { return keys.isEmpty ? "" : " at " }
      return " at " + joined[first...last]
    }
    switch decoding {
    case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(path(context))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return context.debugDescription + path(context)
    @unknown default: return "\(error)"
    }
  }
}
