import FerryProtocol
import FerrySystem
import JSONText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The framing under ``BrokerClient``: one blocking socket to the broker, its frame decoder,
/// the hello, and every wait for progress. It knows frames and answers, not operations.
///
/// Every wait is bounded by ``timeout`` (a watch's by its own idle limit). A failure that
/// leaves the stream out of step (a lost connection, a protocol violation, a failed
/// destination) closes the socket, and later calls fail with `connectionLost`.
///
/// ```swift
/// let connection = try BrokerConnection.open(to: .resolve(), timeout: .seconds(15), clientName: nil)
/// try connection.send(.json(.request, StatusRequest()))
/// let status = try connection.expectResponse(StatusResponse.self)
/// ```
final class BrokerConnection {
  /// The socket's path.
  let socketPath: String
  /// The longest wait for progress.
  var timeout: Duration
  /// What the broker answered to `hello` (read with the first answer when pipelining).
  private(set) var hello: HelloResponse

  /// The socket; `nil` once closed.
  var socket: UnixSocket?
  /// The bytes received and not yet made frames.
  var decoder = FrameDecoder()
  /// Whether the answer to hello is still to be read.
  private(set) var helloPending = false

  /// Connects to the broker at `location` and sends hello; its answer is read by
  /// ``completeHello()``.
  ///
  /// - Throws: ``BrokerClientError``: `noBroker` when nothing answers, `unsafeSocket`,
  ///   `timeout`, `connectionLost`.
  static func open(to location: SocketPath, timeout: Duration, clientName: String?)
    throws(BrokerClientError) -> BrokerConnection
  {
    do throws(SocketPathError) {
      try location.checkDirectory()
    } catch .missing {
      throw BrokerClientError(
        code: .noBroker, message: "no broker is running (\(location.directory) does not exist)")
    } catch .pathTooLong(let path, let limit) {
      throw BrokerClientError(
        code: .noBroker,
        message: "no broker can listen at \(path): it is longer than \(limit) bytes")
    } catch {
      throw BrokerClientError(code: .unsafeSocket, message: "refusing the broker socket: \(error)")
    }
    let path = location.path
    var info = stat()
    if lstat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else {
        throw BrokerClientError(
          code: .unsafeSocket,
          message: "refusing \(path): not a socket owned by this user")
      }
    }
    let socket: UnixSocket
    do throws(UnixSocket.Failure) {
      socket = try UnixSocket(connectingTo: path, within: timeout)
    } catch .nobodyListening {
      throw BrokerClientError(
        code: .noBroker, message: "no broker is running (nothing answers at \(path))")
    } catch .timedOut {
      throw BrokerClientError(code: .timeout, message: "connecting to \(path) timed out")
    } catch {
      throw BrokerClientError(
        code: .connectionLost, message: "cannot connect to \(path): \(error.description)")
    }
    return try BrokerConnection(
      socket: socket, path: path, timeout: timeout, clientName: clientName)
  }

  private init(socket: UnixSocket, path: String, timeout: Duration, clientName: String?)
    throws(BrokerClientError)
  {
    self.socketPath = path
    self.timeout = timeout
    self.socket = socket
    self.hello = HelloResponse(version: 0, pid: 0)
    // The answer is read by `completeHello`, at once or before the first call's answer.
    try send(Frame(kind: .request, body: HelloRequest(client: clientName).compactJSON.serialized))
    helloPending = true
  }

  /// Reads the answer to hello, if not read yet.
  ///
  /// - Throws: ``BrokerClientError``: the broker's refusal (`forbidden`, `busy`,
  ///   `unsupportedVersion`), `unsupportedVersion` when it speaks another version, and the
  ///   connection failures.
  func completeHello() throws(BrokerClientError) {
    guard helloPending else { return }
    helloPending = false
    let frame = try nextFrame(within: timeout, waitingFor: "answer")
    switch frame.kind {
    case .response: break
    case .error: throw try brokerError(from: frame)
    default: throw protocolViolation("\(frame.kind) frame instead of an answer to hello")
    }
    let answer = try compact(frame, HelloResponse.init(compact:))
    guard answer.version == WireProtocol.version else {
      close()
      throw BrokerClientError(
        code: .unsupportedVersion,
        message:
          "the broker speaks protocol version \(answer.version), this client \(WireProtocol.version)"
      )
    }
    hello = answer
  }

  /// Closes the connection; later calls fail with `connectionLost`.
  func close() {
    socket = nil
  }

  /// Whether the connection is open.
  var isConnected: Bool { socket != nil }
}
