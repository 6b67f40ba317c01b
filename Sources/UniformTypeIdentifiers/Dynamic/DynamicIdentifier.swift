/// Apple's `dyn.a…` encoding of types synthesized for unknown tags.
///
/// The payload `?0=6:1=turtle` ("conforms to `public.data`; filename extension `turtle`") is
/// written in 5-bit groups, most significant bit first, with the alphabet
/// `abcdefghkmnpqrstuvwxyz0123456789`, behind the prefix `dyn.a`. Pairs are separated by `:`,
/// several values of one key by `,`; a backslash escapes either. The encoding is reversible
/// and pure, so every process derives the same identifier for the same tag.
///
/// The encoder writes only the abbreviations verified against identifiers macOS produced (tag
/// classes `1`–`4`; conformance `6` = `public.data`, `B` = `public.image`) and full
/// identifiers otherwise. The decoder also accepts the commonly reported ones.
enum DynamicIdentifier {
  static let prefix = "dyn.a"
  private static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)
  private static let alphabetIndex: [Int8] = {
    var index = [Int8](repeating: -1, count: 128)
    for (position, byte) in alphabet.enumerated() { index[Int(byte)] = Int8(position) }
    return index
  }()

  private static let tagClassCodes: [(String, UTTagClass)] = [
    ("1", .filenameExtension), ("2", UTTagClass(rawValue: "com.apple.ostype")), ("3", .mimeType),
    ("4", UTTagClass(rawValue: "com.apple.nspboard-type")),
  ]
  private static let decodableTagClassCodes: [String: UTTagClass] = [
    "5": UTTagClass(rawValue: "public.url-scheme"),
    "14": UTTagClass(rawValue: "com.apple.device-model-code"),
  ]
  private static let conformanceCodes: [(String, String)] = [
    ("6", "public.data"), ("B", "public.image"),
  ]
  private static let decodableConformanceCodes: [String: String] = [
    "7": "public.text", "8": "public.plain-text", "9": "public.utf16-plain-text",
    "A": "com.apple.traditional-mac-plain-text", "C": "public.video", "D": "public.audio",
    "E": "public.directory", "F": "public.folder",
  ]

  /// What a dynamic identifier says: its tags and the types it conforms to.
  struct Payload: Equatable {
    var conformsTo: [String]
    var tags: [(UTTagClass, [String])]

    static func == (lhs: Payload, rhs: Payload) -> Bool {
      lhs.conformsTo == rhs.conformsTo && lhs.tags.elementsEqual(rhs.tags, by: { $0 == $1 })
    }
  }

  /// The identifier of the dynamic type for `tag` in `tagClass`, conforming to `parent`.
  static func encode(tag: String, tagClass: UTTagClass, conformingTo parent: String?) -> String {
    var payload = ""
    if let parent {
      let code = conformanceCodes.first { $0.1 == TypeIdentifier.key(parent) }?.0 ?? parent
      payload = "?0=\(escape(code)):"
    }
    let classCode = tagClassCodes.first { $0.1 == tagClass }?.0 ?? tagClass.rawValue
    payload += "\(escape(classCode))=\(escape(tag))"
    return prefix + base32(Array(payload.utf8))
  }

  /// Decodes a `dyn.a…` identifier, or returns `nil` when it is not one.
  static func decode(_ identifier: String) -> Payload? {
    let key = TypeIdentifier.key(identifier)
    guard key.hasPrefix(prefix), let bytes = unbase32(key.utf8.dropFirst(prefix.utf8.count)),
      let text = String(validating: bytes, as: UTF8.self)
    else { return nil }
    var body = Substring(text)
    if body.hasPrefix("?") { body = body.dropFirst() }
    var payload = Payload(conformsTo: [], tags: [])
    for pair in split(body, on: ":") where !pair.isEmpty {
      guard let equals = pair.firstIndex(of: "=") else { return nil }
      let name = unescape(pair[..<equals])
      let values = split(pair[pair.index(after: equals)...], on: ",").map(unescape)
      if name == "0" {
        payload.conformsTo += values.map { code in
          conformanceCodes.first { $0.0 == code }?.1 ?? decodableConformanceCodes[code] ?? code
        }
      } else {
        let tagClass =
          tagClassCodes.first { $0.0 == name }?.1 ?? decodableTagClassCodes[name]
          ?? UTTagClass(rawValue: name)
        payload.tags.append((tagClass, values))
      }
    }
    return payload.tags.isEmpty && payload.conformsTo.isEmpty ? nil : payload
  }

  private static func base32(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 8 + 4) / 5)
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        output.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
      }
    }
    if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
    return String(decoding: output, as: UTF8.self)
  }

  private static func unbase32(_ characters: some Sequence<UInt8>) -> [UInt8]? {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for character in characters {
      guard character < 128, case let value = alphabetIndex[Int(character)], value >= 0 else {
        return nil
      }
      buffer = (buffer << 5) | UInt32(value)
      bits += 5
      if bits >= 8 {
        bits -= 8
        output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
      }
    }
    return output.isEmpty ? nil : output
  }

  private static func escape(_ value: String) -> String {
    guard value.contains(where: { $0 == "\\" || $0 == "," || $0 == ":" }) else { return value }
    var escaped = ""
    for character in value {
      if character == "\\" || character == "," || character == ":" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  private static func unescape(_ value: Substring) -> String {
    guard value.contains("\\") else { return String(value) }
    var result = ""
    var escaping = false
    for character in value {
      if !escaping && character == "\\" {
        escaping = true
        continue
      }
      escaping = false
      result.append(character)
    }
    return result
  }

  /// Splits on `separator` where it is not escaped by a backslash.
  private static func split(_ text: Substring, on separator: Character) -> [Substring] {
    var parts: [Substring] = []
    var start = text.startIndex
    var escaping = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if escaping {
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == separator {
        parts.append(text[start..<index])
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    parts.append(text[start...])
    return parts
  }
}
