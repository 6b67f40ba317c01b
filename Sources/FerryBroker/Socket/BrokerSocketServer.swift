import FerryProtocol
import FerrySystem
import Logging
import NIOCore
import NIOPosix
import Pasteboard

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
/// Under load and mishandling it keeps serving: connections are admitted up to what the
/// descriptor limit allows (``ConnectionAdmission``), a listener out of descriptors sheds
/// connections instead of spinning (``AcceptShedding``), and a removed socket file is made
/// again (``SocketDirectoryWatch``).
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
    /// The clipboard history, when the daemon keeps one: writes note their client as the
    /// source, and the `history…` operations use it.
    public var history: BrokerHistory?
    /// Where `register` keeps declaration files so a restarted broker loads them again;
    /// `nil` keeps them in the spool, for this run only.
    public var registrations: RegisteredDeclarations?
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
    /// Returns once change `count` of pasteboard `name` is published where the broker
    /// serves that pasteboard besides the socket (its X selection), or the broker gave up
    /// waiting: a write is acknowledged after it. Returns at once by default.
    public var publication: @Sendable (_ name: Pasteboard.Name, _ count: Int) async -> Void
    /// The most connections served at once; when `nil`, what the descriptor limit
    /// (`RLIMIT_NOFILE`) leaves room for at ``BrokerSocketServer/bind(_:)`` (see
    /// docs/PROTOCOL.md, "Too many connections").
    public var connectionLimit: Int?
    /// Whether the server calls ``HeapRelease/trim()`` when its last connection closes, giving
    /// back what the connections freed; the daemon sets it. Off by default: trimming is a
    /// decision for the process, not for a library.
    public var trimsHeapWhenIdle: Bool

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
      self.publication = { _, _ in }
      self.trimsHeapWhenIdle = false
    }
  }

  /// A connection as accepted: the peer's credentials (`nil` when they could not be read),
  /// the channel, not reading yet, and its place among the served connections (`nil` when it
  /// was refused: already answered and closed).
  ///
  /// The channel is wrapped in its `NIOAsyncChannel` by the task that serves it, not in the
  /// child initializer: NIO drops initializer results that arrive as the listener closes,
  /// and a dropped `NIOAsyncChannel` traps. Reading starts only once the wrapper is in place
  /// (`autoRead` is off until then), so no byte is lost.
  typealias Accepted = (
    peer: PeerCredentials?, channel: any Channel, ticket: ConnectionAdmission.Ticket?
  )

  /// A listening socket and its channel.
  struct Listener {
    var channel: NIOAsyncChannel<Accepted, Never>
    var identity: ListeningSocket.Identity
  }

  /// The socket's path.
  public var path: String { context.configuration.location.path }

  let context: BrokerSocketContext
  /// The listener serving the socket file now (a new one when the file was removed), and
  /// whether the server was closed.
  let state: TrackedMutex<(listener: Listener, closed: Bool)>
  /// Every listener, the first and those made after the socket file was removed.
  let listeners: AsyncStream<NIOAsyncChannel<Accepted, Never>>
  let newListener: AsyncStream<NIOAsyncChannel<Accepted, Never>>.Continuation
  /// The watch that tells when the socket file is removed; `nil` without inotify.
  let watch: SocketDirectoryWatch?
  private let served = TrackedMutex(false)

  private init(listener: Listener, context: BrokerSocketContext) {
    self.context = context
    state = TrackedMutex((listener, false))
    (listeners, newListener) = AsyncStream.makeStream()
    newListener.yield(listener.channel)
    watch = SocketDirectoryWatch(context.configuration.location)
    if watch == nil {
      context.logger.notice(
        "cannot watch the socket's directory (inotify); a removed socket file stays removed")
    }
  }

  deinit { watch?.cancel() }

  /// Binds the socket and starts listening; connections are accepted once ``serve()`` runs.
  ///
  /// A socket file already at the path is removed only when nothing answers on it (a broker
  /// that crashed); the socket is made 0600 before it listens.
  ///
  /// - Throws: ``SocketPathError`` for an unsafe directory, ``BrokerSocketServerError`` when
  ///   another broker answers, a non-socket file is in the way or the socket cannot be made,
  ///   ``SpoolError``, or NIO's error from registering the listener.
  public static func bind(_ configuration: Configuration) async throws -> BrokerSocketServer {
    try configuration.location.prepareDirectory()
    try removeStaleSocket(at: configuration.location.path)
    let spool = try SpoolDirectory(parent: configuration.spoolParent)
    // Large conversions (100 MiB of text as UTF-16) go to the spool too, on disk, not memory.
    configuration.converters.spoolParent = spool.path
    let context = BrokerSocketContext(configuration: configuration, spool: spool)
    let listener = try await listen(context)
    configuration.logger.info(
      "listening",
      metadata: [
        "socket": "\(configuration.location.path)", "spool": "\(spool.path)",
        "connections": "\(context.admission.limit) at most",
      ])
    return BrokerSocketServer(listener: listener, context: context)
  }

  /// Accepts and serves connections until the task is cancelled or ``close()`` is called,
  /// then ends the connections it serves (a watch never ends by itself), waits for them and
  /// removes the socket file. Call it once.
  ///
  /// When the socket file is removed meanwhile (`rm`, a cleaner of the runtime directory),
  /// the server listens anew at the same path; connections being served go on.
  public func serve() async throws {
    let first = served.withLock { served in
      defer { served = true }
      return !served
    }
    precondition(first, "serve() runs once")
    defer { removeSocketFile() }
    let listeners = self.listeners
    let context = self.context
    // The accept loops run in a task of their own, which cancelling `serve()` does not
    // cancel: each stops when its listener closes, after taking every connection already
    // accepted — an accepted connection left unserved would be dropped without being closed.
    let accepting = Task {
      let (accepted, acceptedSink) = AsyncStream<Accepted>.makeStream()
      let acceptors = Task {
        await withDiscardingTaskGroup { group in
          for await listener in listeners {
            group.addTask {
              await Self.accept(from: listener, into: acceptedSink, context: context)
            }
          }
        }
        acceptedSink.finish()
      }
      await withDiscardingTaskGroup { group in
        for await accepted in accepted {
          guard let ticket = accepted.ticket else { continue }
          context.openConnections.add(1, ordering: .relaxed)
          // The connection's task runs on its channel's event loop (see
          // EventLoopTaskExecutor): a short request wakes no other thread.
          group.addTask(executorPreference: EventLoopTaskExecutor(accepted.channel.eventLoop)) {
            await BrokerSocketConnection.serve(
              accepted.channel, peer: accepted.peer, ticket: ticket, context: context)
            ticket.leave()
            let left = context.openConnections.subtract(1, ordering: .relaxed).newValue
            if left == 0, context.configuration.trimsHeapWhenIdle {
              // On the thread pool: a trim takes a moment the next connection need not wait.
              context.configuration.threadPool.submit { _ in HeapRelease.trim() }
            }
          }
        }
        group.cancelAll()
      }
      await acceptors.value
    }
    let rebinding = Task { await watchSocketFile() }
    await withTaskCancellationHandler {
      await accepting.value
    } onCancel: {
      shutDown()
    }
    rebinding.cancel()
    await rebinding.value
  }

  /// Passes on every connection a listener accepts, until it closes.
  private static func accept(
    from listener: NIOAsyncChannel<Accepted, Never>, into sink: AsyncStream<Accepted>.Continuation,
    context: BrokerSocketContext
  ) async {
    do {
      try await listener.executeThenClose { inbound in
        for try await accepted in inbound { sink.yield(accepted) }
      }
    } catch {
      context.logger.error("stopped accepting", metadata: ["error": "\(error)"])
    }
  }

  /// The number of connections being served.
  package var openConnectionCount: Int { context.openConnections.load(ordering: .relaxed) }

  /// Stops accepting connections and ends those being served; ``serve()`` then returns.
  public func close() async {
    let channel = shutDown()
    try? await channel.closeFuture.get()
  }

  /// Marks the server closed and closes its listener; returns the listener's channel.
  @discardableResult
  private func shutDown() -> any Channel {
    let channel = state.withLock { state in
      state.closed = true
      return state.listener.channel.channel
    }
    newListener.finish()
    watch?.cancel()
    channel.close(promise: nil)
    return channel
  }

  private func removeSocketFile() {
    let path = context.configuration.location.path
    let identity = state.withLock { $0.listener.identity }
    if ListeningSocket.Identity(path: path) == identity { unlink(path) }
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
  /// The socket could not be made, bound or set listening.
  case cannotListen(String, reason: String)

  public var description: String {
    switch self {
    case .alreadyRunning(let path): return "a broker is already running at \(path)"
    case .notASocket(let path): return "\(path) exists and is not a socket; refusing to replace it"
    case .cannotSecure(let path, let reason): return "cannot make \(path) private: \(reason)"
    case .cannotListen(let path, let reason): return "cannot listen at \(path): \(reason)"
    }
  }
}
