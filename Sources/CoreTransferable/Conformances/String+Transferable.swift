import FoundationEssentials
import UniformTypeIdentifiers

/// `String` transfers as UTF-8 plain text, then as plain text.
///
/// ```swift
/// "Hello".exportedContentTypes()   // [public.utf8-plain-text, public.plain-text]
/// try await String(importing: Data("Hello".utf8), contentType: .plainText)   // "Hello"
/// ```
///
/// Exports are UTF-8 without a byte order mark. Imports of plain text follow a byte order
/// mark (UTF-8, UTF-16, UTF-32) and are otherwise UTF-8; bytes that are not valid text fail
/// the import rather than turning into replacement characters.
extension String: Transferable {
  /// UTF-8 plain text, then plain text; both directions.
  ///
  /// ```swift
  /// String.exportedContentTypes()   // [public.utf8-plain-text, public.plain-text]
  /// ```
  public static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .utf8PlainText) { text in
      Data(text.utf8)
    } importing: { data in
      try TextDecoding.utf8(data)
    }
    DataRepresentation(contentType: .plainText) { text in
      Data(text.utf8)
    } importing: { data in
      try TextDecoding.plainText(data)
    }
  }
}

/// Strict decoding of transferred text.
enum TextDecoding {
  /// UTF-8, with an optional byte order mark.
  static func utf8(_ data: Data) throws -> String {
    let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw TextDecodingError(encoding: "UTF-8")
    }
    return text
  }

  /// Text whose encoding a byte order mark names; UTF-8 without one.
  static func plainText(_ data: Data) throws -> String {
    let marks: [([UInt8], String.Encoding, String)] = [
      ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian, "UTF-32"),
      ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian, "UTF-32"),
      ([0xFE, 0xFF], .utf16BigEndian, "UTF-16"),
      ([0xFF, 0xFE], .utf16LittleEndian, "UTF-16"),
    ]
    for (mark, encoding, name) in marks where data.starts(with: mark) {
      guard let text = String(data: data.dropFirst(mark.count), encoding: encoding) else {
        throw TextDecodingError(encoding: name)
      }
      return text
    }
    return try utf8(data)
  }
}

/// Transferred bytes are not text in the encoding they claim.
struct TextDecodingError: Error, CustomStringConvertible {
  let encoding: String
  var description: String { "the data is not valid \(encoding) text" }
}
