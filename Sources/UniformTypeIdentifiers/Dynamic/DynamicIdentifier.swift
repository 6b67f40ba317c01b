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
  /// The 32 letters, a constant rather than a global: reading it needs no initialization check.
  private static var alphabet: UnsafeBufferPointer<UInt8> {
    let letters: StaticString = "abcdefghkmnpqrstuvwxyz0123456789"
    return UnsafeBufferPointer(start: letters.utf8Start, count: letters.utf8CodeUnitCount)
  }
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
  ///
  /// An ASCII payload is escaped on the stack and encoded straight into the identifier's
  /// storage: the identifier is the one allocation.
  static func encode(tag: String, tagClass: UTTagClass, conformingTo parent: String?) -> String {
    let parentCode = parent.map(conformanceCode(of:))
    let classCode = tagClassCodes.first { $0.1 == tagClass }?.0 ?? tagClass.rawValue
    // The separators `?0=`, `:` and `=`, and every other byte escaped at worst.
    let capacity = 5 + 2 * ((parentCode?.utf8.count ?? 0) + classCode.utf8.count + tag.utf8.count)
    let ascii = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
      buffer -> String? in
      var payload = PayloadWriter(buffer: buffer)
      if let parentCode {
        payload.append("?0=")
        guard payload.append(escaping: parentCode) else { return nil }
        payload.append(":")
      }
      guard payload.append(escaping: classCode) else { return nil }
      payload.append("=")
      guard payload.append(escaping: tag) else { return nil }
      return identifier(payload: payload.written)
    }
    if let ascii { return ascii }
    // `escape(_:)` compares Characters, and a backslash followed by a combining mark is one
    // Character, left unescaped: byte by byte would escape it.
    var payload = parentCode.map { "?0=\(escape($0)):" } ?? ""
    payload += "\(escape(classCode))=\(escape(tag))"
    return Array(payload.utf8).withUnsafeBufferPointer(identifier(payload:))
  }

  /// The abbreviation that stands for a conformance to `parent`, or `parent` itself.
  private static func conformanceCode(of parent: String) -> String {
    if let code = conformanceCodes.first(where: { $0.1 == parent })?.0 { return code }
    let key = TypeIdentifier.key(parent)
    return conformanceCodes.first { $0.1 == key }?.0 ?? parent
  }

  /// `dyn.a` and `payload` in 5-bit groups, most significant bit first, as letters of
  /// `alphabet`.
  private static func identifier(payload: UnsafeBufferPointer<UInt8>) -> String {
    let prefix: StaticString = "dyn.a"  // `Self.prefix`, as bytes
    let alphabet = alphabet
    let capacity = prefix.utf8CodeUnitCount + (payload.count * 8 + 4) / 5
    return String(unsafeUninitializedCapacity: capacity) { output in
      var count = 0
      for byte in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
        output[count] = byte
        count += 1
      }
      // Masking shifts and wrapping arithmetic: every shift is below the width and every index
      // within the capacity, so none needs a check. Five bytes are eight letters.
      var index = 0
      while payload.count &- index >= 5 {
        var group: UInt64 = 0
        for offset in 0..<5 { group = group &<< 8 | UInt64(payload[index &+ offset]) }
        for letter in 0..<8 {
          let value = group &>> (35 &- 5 &* UInt64(letter))
          output[count &+ letter] = alphabet[Int(truncatingIfNeeded: value) & 31]
        }
        count &+= 8
        index &+= 5
      }
      var buffer: UInt32 = 0
      var bits: UInt32 = 0
      for byte in payload[index...] {
        buffer = buffer &<< 8 | UInt32(byte)
        bits &+= 8
        while bits >= 5 {
          bits &-= 5
          output[count] = alphabet[Int(buffer &>> bits & 31)]
          count &+= 1
        }
      }
      if bits > 0 {
        output[count] = alphabet[Int(buffer &<< (5 &- bits) & 31)]
        count &+= 1
      }
      return count
    }
  }

  /// A payload being written to a buffer large enough for it.
  private struct PayloadWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

    /// Appends ASCII `separator` as is.
    mutating func append(_ separator: StaticString) {
      let bytes = UnsafeBufferPointer(
        start: separator.utf8Start, count: separator.utf8CodeUnitCount)
      for byte in bytes {
        buffer[count] = byte
        count += 1
      }
    }

    /// Appends `text` with a backslash before each `\`, `,` and `:`; returns `false` when
    /// `text` is not ASCII.
    mutating func append(escaping text: String) -> Bool {
      text.utf8.withContiguousStorageIfAvailable { append(escaping: $0) }
        ?? Array(text.utf8).withUnsafeBufferPointer { append(escaping: $0) }
    }

    private mutating func append(escaping bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      var count = self.count
      defer { self.count = count }
      for byte in bytes {
        guard byte < 0x80 else { return false }
        if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") {
          buffer[count] = UInt8(ascii: "\\")
          count &+= 1
        }
        buffer[count] = byte
        count &+= 1
      }
      return true
    }
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
