/// One unit of the Ferry socket protocol: a kind and a body.
///
/// On the wire a frame is a 4-byte big-endian length `N`, then `N` bytes: one byte of
/// ``Kind``, then the body. JSON kinds carry a UTF-8 JSON object; ``Kind/data`` carries raw
/// bytes; ``Kind/end`` carries nothing. docs/PROTOCOL.md describes every byte.
///
/// ```swift
/// let frame = try Frame.json(.request, HelloRequest())
/// frame.encoded()   // [0, 0, 0, 27, 1, 123, 34, 111, 112, …]
/// ```
public struct Frame: Sendable, Hashable {
  /// What a frame carries.
  public enum Kind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// A client's request: a JSON object with an `op`.
    case request = 1
    /// The broker's answer to a request: a JSON object.
    case response = 2
    /// Raw bytes of one representation, at most ``FrameLimits/maxDataBody`` of them.
    case data = 3
    /// The end of one representation's bytes; the body is empty.
    case end = 4
    /// A watch event: a JSON object.
    case event = 5
    /// A failure: a JSON object with `code` and `message`.
    case error = 6

    /// Whether the body is a JSON object.
    public var carriesJSON: Bool {
      switch self {
      case .request, .response, .event, .error: return true
      case .data, .end: return false
      }
    }

    /// The kind's name in capitals, as docs/PROTOCOL.md spells it.
    public var description: String {
      switch self {
      case .request: return "REQUEST"
      case .response: return "RESPONSE"
      case .data: return "DATA"
      case .end: return "END"
      case .event: return "EVENT"
      case .error: return "ERROR"
      }
    }
  }

  /// The size of the length field and the kind byte that precede every body.
  public static let headerSize = 5

  /// What the frame carries.
  public var kind: Kind
  /// The body, without the length and kind.
  public var body: [UInt8]

  /// Creates a frame.
  public init(kind: Kind, body: [UInt8] = []) {
    self.kind = kind
    self.body = body
  }

  /// The frame on the wire: length, kind, body.
  public func encoded() -> [UInt8] {
    var bytes = Frame.header(kind: kind, bodyCount: body.count)
    bytes.append(contentsOf: body)
    return bytes
  }

  /// The five bytes that precede a body of `bodyCount` bytes: the big-endian length (the
  /// kind byte plus the body) and the kind.
  ///
  /// Writers that stream a body from elsewhere (a file, a slice of `Data`) send these, then
  /// the body, without assembling a frame.
  public static func header(kind: Kind, bodyCount: Int) -> [UInt8] {
    let length = UInt32(bodyCount + 1)
    return [
      UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
      UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length), kind.rawValue,
    ]
  }
}

/// The sizes the protocol allows. A frame past them is refused with `frameTooLarge` and ends
/// the connection.
public enum FrameLimits {
  /// The largest body of a ``Frame/Kind/data`` frame: 1 MiB.
  public static let maxDataBody = 1 << 20
  /// The largest JSON body (request, response, event, error): 64 KiB.
  public static let maxJSONBody = 64 << 10
  /// The largest length field: 1 MiB + 64 KiB (the kind byte counts).
  public static let maxFrameLength = maxDataBody + maxJSONBody

  /// The largest body a frame of `kind` may have.
  public static func maxBody(for kind: Frame.Kind) -> Int {
    switch kind {
    case .data: return maxDataBody
    case .end: return 0
    case .request, .response, .event, .error: return maxJSONBody
    }
  }
}

/// Why a byte stream is not a valid sequence of frames. The connection it came on cannot be
/// resynchronized and is closed after an ERROR frame.
public enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The length field is larger than ``FrameLimits/maxFrameLength``, or the body larger than
  /// its kind allows.
  case tooLarge(kind: Frame.Kind?, bodyCount: Int, limit: Int)
  /// The length field is zero: a frame has at least its kind byte.
  case zeroLength
  /// The kind byte names no kind.
  case unknownKind(UInt8)
  /// An END frame with a body.
  case endWithBody(Int)

  /// The protocol error code an ERROR frame reports for this.
  public var code: BrokerErrorCode {
    switch self {
    case .tooLarge: return .frameTooLarge
    case .zeroLength, .unknownKind, .endWithBody: return .badRequest
    }
  }

  /// One line naming what is wrong.
  public var description: String {
    switch self {
    case .tooLarge(let kind, let bodyCount, let limit):
      let what = kind.map { "a \($0) frame body" } ?? "a frame"
      return "\(what) of \(bodyCount) bytes is larger than the limit of \(limit) bytes"
    case .zeroLength:
      return "a frame of length 0 (a frame has at least its kind byte)"
    case .unknownKind(let byte):
      return "unknown frame kind \(byte)"
    case .endWithBody(let count):
      return "an END frame with a body of \(count) bytes (END has none)"
    }
  }
}
