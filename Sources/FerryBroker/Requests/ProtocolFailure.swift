import FerryProtocol
import Pasteboard

/// A request the broker answers with an ERROR frame.
///
/// Most failures leave the connection usable (an unknown type, an empty pasteboard). Those
/// that leave the stream out of step — a bad frame, a request that is not JSON, a frame out
/// of order — close it after the ERROR frame.
struct ProtocolFailure: Error, CustomStringConvertible {
  /// The code sent.
  var code: BrokerErrorCode
  /// The message sent.
  var message: String
  /// Whether the connection is closed after the ERROR frame.
  var closesConnection: Bool

  var description: String { "\(code): \(message)" }

  /// A failure that leaves the connection usable.
  static func refusal(_ code: BrokerErrorCode, _ message: String) -> ProtocolFailure {
    ProtocolFailure(code: code, message: message, closesConnection: false)
  }

  /// A failure after which the connection is closed.
  static func fatal(_ code: BrokerErrorCode, _ message: String) -> ProtocolFailure {
    ProtocolFailure(code: code, message: message, closesConnection: true)
  }

  /// The ERROR frame's body.
  var body: ErrorBody { ErrorBody(code: code, message: message) }
}

extension ProtocolFailure {
  /// The failure a pasteboard error becomes.
  init(_ error: PasteboardError) {
    switch error {
    case .empty: self = .refusal(.empty, error.description)
    case .typeNotAvailable: self = .refusal(.notAvailable, error.description)
    case .providerFailed, .conversionFailed: self = .refusal(.providerFailed, error.description)
    case .providerTimedOut: self = .refusal(.timeout, error.description)
    case .invalidConverterDeclaration: self = .refusal(.invalidDeclaration, error.description)
    default: self = .refusal(.internal, error.description)
    }
  }
}

/// The client closed the connection in the middle of a request.
struct ConnectionEnded: Error {}
