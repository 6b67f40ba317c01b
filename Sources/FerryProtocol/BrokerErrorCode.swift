/// The code of an ERROR frame: what kind of failure, so that a program can act on it and a
/// command-line tool can pick its exit status.
///
/// Codes are strings on the wire; a code this version does not know decodes as itself, so a
/// newer broker's codes reach the caller unchanged.
///
/// ```swift
/// catch let error as BrokerClientError where error.code == .notAvailable { … }
/// ```
public struct BrokerErrorCode: RawRepresentable, Hashable, Sendable, Codable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The code as sent.
  public let rawValue: String

  /// Creates a code.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Creates a code from a literal.
  public init(stringLiteral value: String) { self.rawValue = value }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The code.
  public var description: String { rawValue }

  /// The request is not valid: malformed JSON, a missing field, a frame out of order, an
  /// unknown operation or option. Frames out of order close the connection.
  public static let badRequest: BrokerErrorCode = "badRequest"
  /// The client speaks a protocol version the broker does not; the connection is closed.
  public static let unsupportedVersion: BrokerErrorCode = "unsupportedVersion"
  /// A frame larger than the limits; the connection is closed.
  public static let frameTooLarge: BrokerErrorCode = "frameTooLarge"
  /// A type identifier nobody declared.
  public static let unknownType: BrokerErrorCode = "unknownType"
  /// The pasteboard holds nothing.
  public static let empty: BrokerErrorCode = "empty"
  /// None of the requested types is available.
  public static let notAvailable: BrokerErrorCode = "notAvailable"
  /// Producing or converting a representation failed.
  public static let providerFailed: BrokerErrorCode = "providerFailed"
  /// Producing a representation took too long.
  public static let timeout: BrokerErrorCode = "timeout"
  /// A declaration file could not be read as one.
  public static let invalidDeclaration: BrokerErrorCode = "invalidDeclaration"
  /// The peer is another user; the connection is closed.
  public static let forbidden: BrokerErrorCode = "forbidden"
  /// The broker serves as many connections as its descriptors allow; the connection is
  /// closed. Sent in place of the hello's answer, or to a connection that sat idle longest
  /// when a new one needed its place.
  public static let busy: BrokerErrorCode = "busy"
  /// A history operation, and the broker keeps no history: it was started with
  /// `--no-history`, or the history could not be opened. The message says why.
  public static let historyOff: BrokerErrorCode = "historyOff"
  /// A history entry named by id does not exist (never did, or was deleted or evicted).
  public static let notFound: BrokerErrorCode = "notFound"
  /// The broker failed (an I/O error, a bug).
  public static let `internal`: BrokerErrorCode = "internal"
}
