import FerryProtocol
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension BrokerSocketServer {
  /// Makes the socket at the configured path and its NIO listener.
  ///
  /// One event loop accepts and serves every connection: a short request then wakes a single
  /// broker thread. Large payloads do not need more — files are read on the thread pool, and
  /// a spooled file is handed to the client to copy itself.
  ///
  /// Each accepted connection is admitted or refused (``ConnectionAdmission``) at once, on
  /// the event loop, so that a flood of connections is shed as fast as it comes.
  static func listen(_ context: BrokerSocketContext) async throws -> Listener {
    let configuration = context.configuration
    let path = configuration.location.path
    let socket = try ListeningSocket.make(at: path, backlog: 128)
    let loop = configuration.eventLoopGroup.next()
    let admission = context.admission
    do {
      let channel: NIOAsyncChannel<Accepted, Never> = try await ServerBootstrap(
        group: loop, childGroup: loop
      )
      .serverChannelOption(.backlog, value: 128)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(
            AcceptShedding(listener: socket.descriptor, logger: context.logger))
        }
      }
      // Each connection keeps its receive buffer while it lives: start small (NIO's 2 KiB), so
      // an idle connection costs little — 64 KiB each made 500 idle connections 32 MiB —
      // and let a large write grow it by doubling, read after read, up to 1 MiB.
      .childChannelOption(
        .recvAllocator,
        value: AdaptiveRecvByteBufferAllocator(
          minimum: 1024, initial: 2 << 10, maximum: 1 << 20)
      )
      .childChannelOption(.writeBufferWaterMark, value: .init(low: 256 << 10, high: 1 << 20))
      .childChannelOption(.autoRead, value: false)
      .bind(socket.descriptor) { channel in
        guard case .admitted(let ticket) = admission.admit(channel) else {
          return channel.eventLoop.makeSucceededFuture((peer: nil, channel: channel, ticket: nil))
        }
        return PeerCredentials.of(channel)
          .map { peer -> Accepted in (peer: peer, channel: channel, ticket: ticket) }
          .recover { _ -> Accepted in (peer: nil, channel: channel, ticket: ticket) }
      }
      return Listener(channel: channel, identity: socket.identity)
    } catch {
      if ListeningSocket.Identity(path: path) == socket.identity { unlink(path) }
      throw error
    }
  }

  /// Listens anew each time the socket file is found gone, until the server closes.
  func watchSocketFile() async {
    guard let watch else { return }
    for await _ in watch.changes {
      await listenAgainIfGone()
    }
  }

  /// When the file at the socket's path is no longer this server's socket, makes a new one
  /// there (and the directory, when it went too). The old listener is closed; the
  /// connections it accepted go on.
  ///
  /// A file that is not a socket, or a socket another broker answers on, is left alone.
  func listenAgainIfGone() async {
    let location = context.configuration.location
    let (identity, closed) = state.withLock { ($0.listener.identity, $0.closed) }
    guard !closed, ListeningSocket.Identity(path: location.path) != identity else { return }
    let logger = context.logger
    do {
      try location.prepareDirectory()
      watch?.watchAgain()
      try Self.removeStaleSocket(at: location.path)
      let listener = try await Self.listen(context)
      let previous = state.withLock { state -> Listener? in
        guard !state.closed else { return nil }
        defer { state.listener = listener }
        return state.listener
      }
      guard let previous else {
        listener.channel.channel.close(promise: nil)
        if ListeningSocket.Identity(path: location.path) == listener.identity {
          unlink(location.path)
        }
        return
      }
      newListener.yield(listener.channel)
      previous.channel.channel.close(promise: nil)
      logger.notice(
        "the socket file was removed; listening again", metadata: ["socket": "\(location.path)"])
    } catch {
      logger.error(
        "the socket file was removed or replaced, and cannot be made again",
        metadata: ["socket": "\(location.path)", "error": "\(error)"])
    }
  }
}
