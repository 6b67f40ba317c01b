import FerryProtocol
import FerrySystem
import Logging
import NIOCore
import Pasteboard
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One client connection: checks the peer, says hello, then answers requests in order
/// until the client closes, following docs/PROTOCOL.md.
///
/// Requests on one connection run one at a time; connections run concurrently. A request
/// the broker refuses gets an ERROR frame and the connection goes on; a frame that breaks
/// the protocol gets an ERROR frame and the connection closes. Nothing here ends the server.
struct BrokerSocketConnection {
  let context: BrokerSocketContext
  let channel: any Channel
  var inbound: NIOAsyncChannelInboundStream<Frame>.AsyncIterator
  let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  /// The connection's place among those served: idle between requests, when it may give way
  /// to a new connection.
  let ticket: ConnectionAdmission.Ticket
  var logger: Logger
  /// The client's name from its hello (`pbcopy`, `ferry copy`), a history entry's source.
  var clientName: String?

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
          context: context, channel: connection.channel, inbound: inbound.makeAsyncIterator(),
          outbound: outbound, ticket: ticket, logger: logger)
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
      logger[metadataKey: "client"] = "\(client)"
      clientName = client
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
    switch op {
    case .hello:
      throw ProtocolFailure.refusal(.badRequest, "hello was already said on this connection")
    case .write: try await write(try request(WriteRequest.self, from: frame))
    case .read: try await read(try request(ReadRequest.self, from: frame))
    case .types: try await types(try request(TypesRequest.self, from: frame))
    case .watch: try await watch(try request(WatchRequest.self, from: frame))
    case .clear: try await clear(try request(ClearRequest.self, from: frame))
    case .register: try await register(try request(RegisterRequest.self, from: frame))
    case .status: try await status()
    case .historyList: try await historyList(try request(HistoryListRequest.self, from: frame))
    case .historySearch:
      try await historySearch(try request(HistorySearchRequest.self, from: frame))
    case .historyShow: try await historyShow(try request(HistoryShowRequest.self, from: frame))
    case .historyRestore:
      try await historyRestore(try request(HistoryRestoreRequest.self, from: frame))
    case .historyDelete:
      try await historyDelete(try request(HistoryDeleteRequest.self, from: frame))
    case .historyClear: try await historyClear(try request(HistoryClearRequest.self, from: frame))
    case .historyPin, .historyUnpin:
      try await historyPin(try request(HistoryPinRequest.self, from: frame))
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

  // MARK: - Small operations

  /// How long a reader waits for a write on its way — an X owner's offer being captured —
  /// before it is told the pasteboard is busy. A capture's steps time out after 2 s each.
  static let settleLimit: Duration = .seconds(10)

  /// The pasteboard named `name` once no announced write is pending: a reader is answered
  /// from the new owner's copy, never from the item it replaces.
  func settledPasteboard(_ name: String?) async throws -> Pasteboard {
    let board = context.pasteboard(try Self.pasteboardName(name))
    guard await board.settle(within: Self.settleLimit) else {
      throw ProtocolFailure.refusal(
        .timeout,
        "the \(board.name.rawValue) pasteboard is still copying a new owner's offer after \(Self.settleLimit)"
      )
    }
    return board
  }

  private func types(_ request: TypesRequest) async throws {
    let board = try await settledPasteboard(request.pasteboard)
    try await send(
      .response, Self.state(of: board).fitting(within: PasteboardState.budget(sharing: 1)))
  }

  private func clear(_ request: ClearRequest) async throws {
    let board = context.pasteboard(try Self.pasteboardName(request.pasteboard))
    let count = board.clearContents()
    logger.debug(
      "cleared", metadata: ["pasteboard": "\(board.name.rawValue)", "changeCount": "\(count)"])
    try await send(.response, ChangeCountResponse(changeCount: count))
  }

  private func status() async throws {
    let status = await context.configuration.status.status()
    var names = status.pasteboards
    for name in context.usedPasteboards where !names.contains(name) { names.append(name) }
    let budget = PasteboardState.budget(sharing: names.count)
    let boards = names.map {
      Self.state(of: context.configuration.pasteboard($0)).fitting(within: budget)
    }
    let (seconds, attoseconds) = status.uptime.components
    try await send(
      .response,
      StatusResponse(
        version: status.version, pid: status.pid,
        uptime: Double(seconds) + Double(attoseconds) / 1e18, display: status.display,
        x11Bridged: status.x11Bridged, clipboardManager: status.clipboardManager,
        socket: context.configuration.location.path, pasteboards: boards,
        history: await historyStatus(problem: status.historyProblem), wayland: status.wayland,
        displays: status.displays))
  }

  // MARK: - Frames

  /// The frame that starts the next request, `nil` at a clean end of the stream; the
  /// connection is idle while it waits.
  private mutating func nextRequest() async throws -> Frame? {
    ticket.idle()
    defer { ticket.busy() }
    return try await nextFrame()
  }

  /// The next frame, `nil` at a clean end of the stream.
  mutating func nextFrame() async throws -> Frame? {
    do {
      return try await inbound.next()
    } catch let error as FrameError {
      throw ProtocolFailure.fatal(error.code, error.description)
    }
  }

  /// Sends a JSON frame.
  func send(_ kind: Frame.Kind, _ value: some Encodable) async throws {
    try await outbound.write(ByteBuffer(frame: try Frame.json(kind, value)))
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

  // MARK: - Shared checks

  /// The pasteboard a request names, `general` when it names none.
  static func pasteboardName(_ name: String?) throws(ProtocolFailure) -> Pasteboard.Name {
    let name = name ?? WireProtocol.defaultPasteboard
    guard !name.isEmpty, name.utf8.count <= 255,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw .refusal(.badRequest, "a pasteboard name is 1 to 255 bytes without control characters")
    }
    return Pasteboard.Name(rawValue: name)
  }

  /// The type a request names: a type identifier (declared, `dyn.`, or any well-formed one,
  /// taken as imported), or a MIME type.
  static func type(named name: String) throws(ProtocolFailure) -> UTType {
    if name.contains("/") {
      let essence = name.split(separator: ";", maxSplits: 1)[0].trimmingWhitespace()
      let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
      let token = { (part: Substring) in
        !part.isEmpty
          && part.unicodeScalars.allSatisfy {
            $0.isASCII && $0.value > 0x20 && !"()<>@,;:\\\"/[]?=".unicodeScalars.contains($0)
          }
      }
      guard parts.count == 2, token(parts[0]), token(parts[1]), let type = UTType(mimeType: name)
      else {
        throw .refusal(.unknownType, "\"\(name)\" is not a MIME type")
      }
      return type
    }
    if let type = UTType(name) { return type }
    // A well-formed identifier nobody declared yet is a program's own type (a Swift program
    // copying its `Transferable`): accept it as an imported type, which a declaration
    // registered later refines.
    let wellFormed = name.count <= 255 && UTType._isWellFormedIdentifier(name)
    guard wellFormed else {
      throw .refusal(
        .unknownType,
        "unknown type \(name): not a type identifier (reverse-DNS, like com.example.profile) or a MIME type"
      )
    }
    return UTType(importedAs: name)
  }

  /// A pasteboard's state; the types of a concealed item are listed, its bytes never.
  static func state(of board: Pasteboard, changeCount: Int? = nil) -> PasteboardState {
    let items = board.items
    var seen = Set<UTType>()
    let types = items.flatMap(\.types).filter { seen.insert($0).inserted }
    return PasteboardState(
      pasteboard: board.name.rawValue, changeCount: changeCount ?? board.changeCount,
      types: types.map(\.identifier),
      storedTypes: items.flatMap(\.storedTypes).map(\.identifier),
      concealed: items.contains { $0.options.contains(.concealed) })
  }

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
