import FerryProtocol

/// Why a call to the broker failed: an ERROR frame from the broker, or a failure on this
/// side (no broker, a timeout, a connection lost), with the exit status a command-line tool
/// should end with.
///
/// ```swift
/// do {
///   _ = try client.read(types: ["public.png"], into: STDOUT_FILENO)
/// } catch {
///   fputs("pbpaste: \(error)\n", stderr)
///   exit(error.exitCode)
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

  /// The exit status for a command-line tool:
  ///
  /// | status | codes |
  /// |---|---|
  /// | 1 | `empty`, `notAvailable`, `notFound`, `historyOff`: nothing to paste, not in that type, no such history entry, no history |
  /// | 2 | `badRequest`, `unknownType`, `invalidDeclaration`, `unsupportedVersion`, `frameTooLarge`: a usage error |
  /// | 3 | `noBroker`: no broker answers at the socket |
  /// | 4 | `timeout` |
  /// | 5 | `forbidden`, `unsafeSocket`: another user's broker, socket or directory |
  /// | 6 | anything else: the broker failed, the connection was lost, an I/O error |
  public var exitCode: Int32 {
    switch code {
    case .empty, .notAvailable, .notFound, .historyOff: return 1
    case .badRequest, .unknownType, .invalidDeclaration, .unsupportedVersion, .frameTooLarge:
      return 2
    case .noBroker: return 3
    case .timeout: return 4
    case .forbidden, .unsafeSocket: return 5
    default: return 6
    }
  }
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
