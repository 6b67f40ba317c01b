import FerryClient
import Logging
import NIOCore
import NIOPosix
import Pasteboard
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broker's local socket: serves pasteboards to command-line tools and scripts over the
/// protocol of docs/PROTOCOL.md.
///
/// Built on SwiftNIO: a `ServerBootstrap` bound to the Unix socket, a
/// ``BrokerSocketFrameDecoder`` per connection, and each connection served by structured
/// async code over `NIOAsyncChannel`, whose inbound and outbound sides carry NIO's
/// backpressure: a slow reader or writer holds one connection's buffers to a few MiB.
///
/// ```swift
/// let server = try await BrokerSocketServer.bind(.init(location: .resolve()))
/// try await server.serve()     // until the task is cancelled
/// ```
public final class BrokerSocketServer: Sendable {
  /// What a server serves, and how.
  public struct Configuration: Sendable {
    /// Where the socket goes. Its directory is created (0700) if missing and refused when
    /// it is not ours or is open to others.
    public var location: SocketPath
    /// The pasteboard for a name; `Pasteboard.named` by default.
    public var pasteboard: @Sendable (Pasteboard.Name) -> Pasteboard
    /// The registry `register` adds declaration files to.
    public var converters: ConverterRegistry
    /// What `status` reports.
    public var status: any BrokerStatusProvider
    /// The spool's parent directory; ``SpoolDirectory/defaultParent(environment:)`` when
    /// `nil`.
    public var spoolParent: String?
    /// A representation larger than this goes to the spool instead of memory: 4 MiB.
    public var spoolThreshold: Int
    /// The most a concealed item, always held in memory, may weigh: 64 MiB.
    public var concealedLimit: Int
    /// The largest declaration file `register` accepts: 4 MiB.
    public var declarationLimit: Int
    /// The broker's log. Payload bytes never go there, nor anything of a concealed item but
    /// its size.
    public var logger: Logger
    /// The event loops serving connections.
    public var eventLoopGroup: any EventLoopGroup
    /// The threads that read and write spool files.
    public var threadPool: NIOThreadPool
    /// The user whose connections are admitted (checked with `SO_PEERCRED`); the process's
    /// own by default.
    public var peerUID: UInt32

    /// A configuration with the defaults above.
    public init(
      location: SocketPath,
      pasteboard: @escaping @Sendable (Pasteboard.Name) -> Pasteboard = { Pasteboard.named($0) },
      converters: ConverterRegistry = .shared,
      status: any BrokerStatusProvider = DefaultBrokerStatusProvider(),
      spoolParent: String? = nil,
      logger: Logger = Logger(label: "ferry.broker")
    ) {
      self.location = location
      self.pasteboard = pasteboard
      self.converters = converters
      self.status = status
      self.spoolParent = spoolParent
      self.spoolThreshold = 4 << 20
      self.concealedLimit = 64 << 20
      self.declarationLimit = 4 << 20
      self.logger = logger
      self.eventLoopGroup = MultiThreadedEventLoopGroup.singleton
      self.threadPool = NIOThreadPool.singleton
      self.peerUID = getuid()
    }
  }

  /// A connection as accepted: the peer's credentials (`nil` when they could not be read)
  /// and the channel, not reading yet.
  ///
  /// The channel is wrapped in its `NIOAsyncChannel` by the task that serves it, not in the
  /// child initializer: NIO drops initializer results that arrive as the listener closes,
  /// and a dropped `NIOAsyncChannel` traps. Reading starts only once the wrapper is in place
  /// (`autoRead` is off until then), so no byte is lost.
  typealias Accepted = (peer: PeerCredentials?, channel: any Channel)

  /// The socket's path.
  public var path: String { context.configuration.location.path }

  private let listener: NIOAsyncChannel<Accepted, Never>
  private let context: BrokerSocketContext
  /// The socket file's device and inode, so that cleanup never removes another broker's.
  private let socketIdentity: (dev_t, ino_t)
  private let served = Mutex(false)

  private init(
    listener: NIOAsyncChannel<Accepted, Never>, context: BrokerSocketContext,
    socketIdentity: (dev_t, ino_t)
  ) {
    self.listener = listener
    self.context = context
    self.socketIdentity = socketIdentity
  }

  /// Binds the socket and starts listening; connections are accepted once ``serve()`` runs.
  ///
  /// A socket file already at the path is removed only when nothing answers on it (a broker
  /// that crashed); the socket is made 0600.
  ///
  /// - Throws: ``SocketPathError`` for an unsafe directory, ``BrokerSocketServerError`` when
  ///   another broker answers or a non-socket file is in the way, ``SpoolError``, or NIO's
  ///   error from binding.
  public static func bind(_ configuration: Configuration) async throws -> BrokerSocketServer {
    let location = configuration.location
    try location.prepareDirectory()
    try removeStaleSocket(at: location.path)
    let spool = try SpoolDirectory(parent: configuration.spoolParent)
    let context = BrokerSocketContext(configuration: configuration, spool: spool)

    // One event loop accepts and serves every connection: a short request then wakes a
    // single broker thread. Large payloads do not need more — files are read on the thread
    // pool, and a spooled file is handed to the client to copy itself.
    let loop = configuration.eventLoopGroup.next()
    let listener: NIOAsyncChannel<Accepted, Never> = try await ServerBootstrap(
      group: loop, childGroup: loop)
      .serverChannelOption(.backlog, value: 128)
      .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(
        minimum: 1024, initial: 64 << 10, maximum: 1 << 20))
      .childChannelOption(.writeBufferWaterMark, value: .init(low: 256 << 10, high: 1 << 20))
      .childChannelOption(.autoRead, value: false)
      .bind(unixDomainSocketPath: location.path, cleanupExistingSocketFile: false) { channel in
        PeerCredentials.of(channel)
          .map { peer -> Accepted in (peer: peer, channel: channel) }
          .recover { _ -> Accepted in (peer: nil, channel: channel) }
      }
    guard chmod(location.path, 0o600) == 0 else {
      let reason = String(cString: strerror(errno))
      try? await listener.channel.close()
      throw BrokerSocketServerError.cannotSecure(location.path, reason: reason)
    }
    var info = stat()
    _ = lstat(location.path, &info)
    configuration.logger.info(
      "listening", metadata: ["socket": "\(location.path)", "spool": "\(spool.path)"])
    return BrokerSocketServer(
      listener: listener, context: context, socketIdentity: (info.st_dev, info.st_ino))
  }

  /// Accepts and serves connections until the task is cancelled or ``close()`` is called,
  /// then ends the connections it serves (a watch never ends by itself), waits for them and
  /// removes the socket file. Call it once.
  public func serve() async throws {
    let first = served.withLock { served in
      defer { served = true }
      return !served
    }
    precondition(first, "serve() runs once")
    defer { removeSocketFile() }
    let listener = self.listener
    let context = self.context
    // The accept loop runs in a task of its own, which cancelling `serve()` does not cancel:
    // it stops when the listener closes, after taking every connection already accepted —
    // an accepted connection left unserved would be dropped without being closed.
    let accepting = Task {
      try await listener.executeThenClose { inbound in
        try await withThrowingDiscardingTaskGroup { group in
          for try await accepted in inbound {
            context.openConnections.add(1, ordering: .relaxed)
            // The connection's task runs on its channel's event loop (see
            // EventLoopTaskExecutor): a short request wakes no other thread.
            group.addTask(executorPreference: EventLoopTaskExecutor(accepted.channel.eventLoop)) {
              await BrokerSocketConnection.serve(
                accepted.channel, peer: accepted.peer, context: context)
              context.openConnections.subtract(1, ordering: .relaxed)
            }
          }
          group.cancelAll()
        }
      }
    }
    try await withTaskCancellationHandler {
      try await accepting.value
    } onCancel: {
      listener.channel.close(promise: nil)
    }
  }

  /// The number of connections being served.
  package var openConnectionCount: Int { context.openConnections.load(ordering: .relaxed) }

  /// Stops accepting connections and ends those being served; ``serve()`` then returns.
  public func close() async {
    try? await listener.channel.close()
  }

  private func removeSocketFile() {
    var info = stat()
    let path = context.configuration.location.path
    if lstat(path, &info) == 0, info.st_dev == socketIdentity.0, info.st_ino == socketIdentity.1 {
      unlink(path)
    }
    context.configuration.logger.info("stopped listening", metadata: ["socket": "\(path)"])
  }

  /// Removes a socket nobody answers on; refuses to touch anything else.
  static func removeStaleSocket(at path: String) throws(BrokerSocketServerError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
    if UnixSocket.isAnswering(at: path) { throw .alreadyRunning(path) }
    unlink(path)
  }
}

/// Why the socket server cannot start.
public enum BrokerSocketServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A broker already answers at the path.
  case alreadyRunning(String)
  /// Something other than a socket is at the path; it is left alone.
  case notASocket(String)
  /// The socket's mode could not be set.
  case cannotSecure(String, reason: String)

  public var description: String {
    switch self {
    case .alreadyRunning(let path): return "a broker is already running at \(path)"
    case .notASocket(let path): return "\(path) exists and is not a socket; refusing to replace it"
    case .cannotSecure(let path, let reason): return "cannot make \(path) private: \(reason)"
    }
  }
}

/// What every connection of a server shares.
final class BrokerSocketContext: Sendable {
  let configuration: BrokerSocketServer.Configuration
  let spool: SpoolDirectory
  /// Pasteboards used through the socket, in first-use order, for `status`.
  private let used = Mutex<[Pasteboard.Name]>([])
  private let connectionCounter = Atomic<Int>(0)
  /// The connections being served.
  let openConnections = Atomic<Int>(0)

  init(configuration: BrokerSocketServer.Configuration, spool: SpoolDirectory) {
    self.configuration = configuration
    self.spool = spool
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
