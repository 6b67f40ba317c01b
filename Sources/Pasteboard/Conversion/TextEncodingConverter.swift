import FoundationEssentials
import UniformTypeIdentifiers

/// Converts text between UTF-8, Latin-1 (X11 `STRING`) and UTF-16.
///
/// UTF-8 text becomes Latin-1 only when every character fits: text Latin-1 cannot hold is
/// refused, never mangled into `?`. UTF-16 is written little-endian; the external form starts
/// with a byte-order mark, and either form is read with or without one. Plain text of no
/// declared encoding is read as UTF-8 when it is valid UTF-8 and as Latin-1 otherwise.
///
/// ```swift
/// TextEncodingConverter().outputs(from: .utf8PlainText)
/// // [org.x.string, public.utf16-plain-text, public.utf16-external-plain-text]
/// ```
public struct TextEncodingConverter: PasteboardConverter {
  /// Creates the converter.
  public init() {}

  /// What each encoding converts to.
  public func outputs(from source: UTType) -> [UTType] {
    switch source {
    case .utf8PlainText: [.latin1PlainText, .utf16PlainText, .utf16ExternalPlainText]
    case .latin1PlainText, .utf16PlainText, .utf16ExternalPlainText, .plainText: [.utf8PlainText]
    default: []
    }
  }

  /// Re-encodes the text.
  ///
  /// - Throws: ``TextEncodingError`` when the text is not valid in its encoding or does not fit
  ///   the target's.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    let text = try Self.decode(payload.data(), as: source)
    switch target {
    case .utf8PlainText: return .data(Data(text.utf8))
    case .latin1PlainText: return .data(try Self.latin1(text))
    case .utf16PlainText: return .data(Self.utf16(text, byteOrderMark: false))
    case .utf16ExternalPlainText: return .data(Self.utf16(text, byteOrderMark: true))
    default: throw TextEncodingError.unsupported(target)
    }
  }

  static func decode(_ data: Data, as source: UTType) throws -> String {
    switch source {
    case .utf8PlainText:
      guard let text = String(validating: data, as: UTF8.self) else {
        throw TextEncodingError.invalid("UTF-8")
      }
      return text
    case .latin1PlainText:
      return String(decoding: data.map { UInt16($0) }, as: UTF16.self)
    case .plainText:
      return String(validating: data, as: UTF8.self)
        ?? String(decoding: data.map { UInt16($0) }, as: UTF16.self)
    default:
      return try utf16Text(data)
    }
  }

  /// Latin-1 bytes of `text`, or an error naming the first character that does not fit.
  static func latin1(_ text: String) throws -> Data {
    var bytes = Data()
    bytes.reserveCapacity(text.utf8.count)
    for (offset, scalar) in text.unicodeScalars.enumerated() {
      guard scalar.value <= 0xFF else {
        throw TextEncodingError.notLatin1(scalar: scalar, offset: offset)
      }
      bytes.append(UInt8(scalar.value))
    }
    return bytes
  }

  static func utf16(_ text: String, byteOrderMark: Bool) -> Data {
    var bytes = Data()
    bytes.reserveCapacity(text.utf16.count * 2 + 2)
    if byteOrderMark { bytes.append(contentsOf: [0xFF, 0xFE]) }
    for unit in text.utf16 {
      bytes.append(UInt8(unit & 0xFF))
      bytes.append(UInt8(unit >> 8))
    }
    return bytes
  }

  static func utf16Text(_ data: Data) throws -> String {
    guard data.count % 2 == 0 else { throw TextEncodingError.invalid("UTF-16") }
    var bytes = [UInt8](data)
    var bigEndian = false
    if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
      bigEndian = true
      bytes.removeFirst(2)
    } else if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
      bytes.removeFirst(2)
    }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    for index in stride(from: 0, to: bytes.count, by: 2) {
      let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
      units.append(bigEndian ? first << 8 | second : second << 8 | first)
    }
    guard let text = String(validating: units, as: UTF16.self) else {
      throw TextEncodingError.invalid("UTF-16")
    }
    return text
  }
}

/// Why text could not be re-encoded.
public enum TextEncodingError: Error, CustomStringConvertible, Sendable {
  /// The text has a character the Latin-1 encoding cannot hold.
  case notLatin1(scalar: Unicode.Scalar, offset: Int)
  /// The bytes are not valid in the named encoding.
  case invalid(String)
  /// The converter does not produce the type.
  case unsupported(UTType)

  /// One line naming the problem.
  public var description: String {
    switch self {
    case .notLatin1(let scalar, let offset):
      let code = String(scalar.value, radix: 16, uppercase: true)
      return "the text has characters Latin-1 cannot hold (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) at character \(offset))"
    case .invalid(let encoding):
      return "the bytes are not valid \(encoding)"
    case .unsupported(let type):
      return "no text encoding for \(type.identifier)"
    }
  }
}
