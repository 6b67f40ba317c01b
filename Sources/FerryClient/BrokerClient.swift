import FerryProtocol

/// A blocking connection to the broker, for command-line tools: no event loop, no threads.
///
/// Every call waits at most ``timeout`` for the broker to make progress (to accept bytes or
/// send some); a transfer of any size goes on as long as bytes move. Calls run one at a
/// time, in order, on one connection. After a failure that leaves the stream out of step
/// (a lost connection, a failed destination), the connection is closed and later calls
/// fail with `connectionLost`.
///
/// The client is the operations (copy, paste, types, watch, register, status, history);
/// the frames, the hello and the waits are its connection's.
///
/// ```swift
/// let client = try BrokerClient.connect(clientName: "pbpaste")
/// let served = try client.read(types: ["public.utf8-plain-text"], into: STDOUT_FILENO)
/// ```
public final class BrokerClient {
  /// How long a call waits for the broker to make progress when not told otherwise: longer
  /// than the broker's own 10-second limit for producing a representation.
  public static let defaultTimeout: Duration = .seconds(15)

  /// The frames under the operations.
  let connection: BrokerConnection

  /// The socket's path.
  public var socketPath: String { connection.socketPath }

  /// The longest wait for progress.
  public var timeout: Duration {
    get { connection.timeout }
    set { connection.timeout = newValue }
  }

  /// What the broker answered to `hello` (read with the first call's answer).
  public var hello: HelloResponse { connection.hello }

  /// Connects to the broker at the default socket and says hello.
  ///
  /// - Parameters:
  ///   - location: The socket; `SocketPath.resolve(uid:)` (FerryProtocol) by default. Its
  ///     directory must be ours and closed to others.
  ///   - timeout: The longest wait for progress, for connecting and for every call.
  ///   - clientName: A name for the broker's log.
  ///   - pipelining: When `true`, returns once the hello is sent, and reads its answer with
  ///     the first call's: the call goes out right behind the hello, saving a round trip
  ///     (most of a short paste's time). A refusal of the hello (`forbidden`,
  ///     `unsupportedVersion`) is then thrown by that first call.
  /// - Throws: ``BrokerClientError``: `noBroker` when nothing answers, `unsafeSocket`,
  ///   `forbidden`, `unsupportedVersion`, `timeout`.
  public static func connect(
    to location: SocketPath = .resolve(), timeout: Duration = defaultTimeout,
    clientName: String? = nil, pipelining: Bool = false
  ) throws(BrokerClientError) -> BrokerClient {
    let connection = try BrokerConnection.open(
      to: location, timeout: timeout, clientName: clientName)
    if !pipelining { try connection.completeHello() }
    return BrokerClient(connection: connection)
  }

  private init(connection: BrokerConnection) {
    self.connection = connection
  }

  /// Closes the connection; later calls fail with `connectionLost`.
  public func close() {
    connection.close()
  }

  /// Whether the connection is open.
  public var isConnected: Bool { connection.isConnected }
}
