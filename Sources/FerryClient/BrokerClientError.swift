import FerryProtocol

/// Why a call to the broker failed: an ERROR frame from the broker, or a failure on this
/// side (no broker, a timeout, a connection lost). The command-line tools pick their exit
/// status from the code (`ExitStatus.init(_:)` in `FerryCommandLine`).
///
/// ```swift
/// do {
///   _ = try client.read(types: ["public.png"], into: STDOUT_FILENO)
/// } catch where error.code == .notAvailable {
///   fputs("pbpaste: \(error)\n", stderr)
/// }
/// ```
public struct BrokerClientError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure: a code the broker sent, or one of the client-side codes below.
  public var code: BrokerErrorCode
  /// One line for people.
  public var message: String

  /// Creates an error.
  public init(code: BrokerErrorCode, message: String) {
    self.code = code
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

extension BrokerErrorCode {
  /// Client side: no broker answers at the socket (no socket, or nothing accepting).
  public static let noBroker: BrokerErrorCode = "noBroker"
  /// Client side: the socket's directory or file is not safely ours (another user's, or
  /// open to others); the client refuses to send anything there.
  public static let unsafeSocket: BrokerErrorCode = "unsafeSocket"
  /// Client side: the broker closed the connection, or sent what the protocol does not
  /// allow.
  public static let connectionLost: BrokerErrorCode = "connectionLost"
  /// Client side: reading the source or writing the destination of a transfer failed.
  public static let io: BrokerErrorCode = "io"
}
