/// A JSON value, read and written without `Codable`: for the few messages of a short paste
/// (hello, read, their answers, errors), and for the declaration files of types and
/// converters, read without full Foundation (`PropertyTree`).
///
/// `JSONEncoder` and `JSONDecoder` cost a short command about half of its own work: their
/// first use looks up conformances at run time, scanning every conformance record of a
/// static binary. These messages are small and flat, so a direct reader and writer do them
/// for a fraction of that. Everything else in the protocol stays `Codable`; tests check that
/// both ways agree (`CompactJSONTests`).
///
/// ```swift
/// let value = try CompactJSON.parse(Array(#"{"type":"public.png"}"#.utf8))
/// value["type"]?.string   // "public.png"
/// ```
package enum CompactJSON: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number as written, so that 64-bit integers (inode numbers) keep every digit.
  case number(String)
  case string(String)
  case array([CompactJSON])
  /// Members in the order written (a later duplicate wins on look-up).
  case object([(String, CompactJSON)])

  /// Why some bytes are not JSON.
  package struct SyntaxError: Error, CustomStringConvertible {
    package var offset: Int
    package var description: String { "not JSON at byte \(offset)" }
  }

  package static func == (lhs: CompactJSON, rhs: CompactJSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The member `key` of an object (the last one of that name), or `nil`.
  package subscript(key: String) -> CompactJSON? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == key }?.1
  }

  package var string: String? { if case .string(let value) = self { value } else { nil } }
  package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
  package var number: Double? { if case .number(let value) = self { Double(value) } else { nil } }
  package var array: [CompactJSON]? { if case .array(let value) = self { value } else { nil } }

  /// An integer number in `Int64`'s range, or `nil`.
  package var integer: Int64? { if case .number(let value) = self { Int64(value) } else { nil } }

  /// A non-negative integer number in `UInt64`'s range, or `nil`.
  package var unsigned: UInt64? { if case .number(let value) = self { UInt64(value) } else { nil } }

  /// An integer as a number.
  package static func integer(_ value: some BinaryInteger) -> CompactJSON { .number(String(value)) }

  // MARK: Writing

  /// The value as compact UTF-8 JSON.
  package var serialized: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(128)
    write(to: &out)
    return out
  }

  private func write(to out: inout [UInt8]) {
    switch self {
    case .null: out += Array("null".utf8)
    case .bool(let value): out += Array((value ? "true" : "false").utf8)
    case .number(let value): out += Array(value.utf8)
    case .string(let value): Self.write(string: value, to: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.write(string: key, to: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func write(string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      // As JSONEncoder writes them, so that a message is written byte for byte as Codable would.
      case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  // MARK: Reading

  /// Parses one JSON value filling `bytes` (whitespace around it allowed).
  package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> CompactJSON {
    var reader = Reader(bytes: bytes)
    let value = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.offset == bytes.count else { throw SyntaxError(offset: reader.offset) }
    return value
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    mutating func skipWhitespace() {
      while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    func failure() -> SyntaxError { SyntaxError(offset: offset) }

    mutating func expect(_ literal: String) throws(SyntaxError) {
      for byte in literal.utf8 {
        guard offset < bytes.count, bytes[offset] == byte else { throw failure() }
        offset += 1
      }
    }

    mutating func value(depth: Int) throws(SyntaxError) -> CompactJSON {
      skipWhitespace()
      guard offset < bytes.count, depth < 64 else { throw failure() }
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        offset += 1
        var members: [(String, CompactJSON)] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          return .object(members)
        }
        while true {
          skipWhitespace()
          let key = try string()
          skipWhitespace()
          try expect(":")
          members.append((key, try value(depth: depth + 1)))
          skipWhitespace()
          guard offset < bytes.count else { throw failure() }
          offset += 1
          if bytes[offset - 1] == UInt8(ascii: "}") { return .object(members) }
          guard bytes[offset - 1] == UInt8(ascii: ",") else { throw failure() }
        }
      case UInt8(ascii: "["):
        offset += 1
        var values: [CompactJSON] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
          offset += 1
          return .array(values)
        }
        while true {
          values.append(try value(depth: depth + 1))
          skipWhitespace()
          guard offset < bytes.count else { throw failure() }
          offset += 1
          if bytes[offset - 1] == UInt8(ascii: "]") { return .array(values) }
          guard bytes[offset - 1] == UInt8(ascii: ",") else { throw failure() }
        }
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      default: return .number(try number())
      }
    }

    /// A number by JSON's grammar (RFC 8259, section 6): `-`? then `0` or digits not starting
    /// with `0`, a fraction of one digit or more, an exponent of one digit or more. `01`,
    /// `1.`, `.5`, `+1` and `1e` are not JSON, though `Double`'s parser takes most of them.
    mutating func number() throws(SyntaxError) -> String {
      let start = offset
      func isDigit(_ index: Int) -> Bool {
        index < bytes.count && (0x30...0x39).contains(bytes[index])
      }
      func digits() throws(SyntaxError) {
        guard isDigit(offset) else { throw SyntaxError(offset: offset) }
        while isDigit(offset) { offset += 1 }
      }
      if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
      if offset < bytes.count, bytes[offset] == UInt8(ascii: "0") {
        offset += 1
        if isDigit(offset) { throw SyntaxError(offset: offset) }
      } else {
        try digits()
      }
      if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
        offset += 1
        try digits()
      }
      if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
        offset += 1
        if offset < bytes.count,
          bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")
        {
          offset += 1
        }
        try digits()
      }
      let text = String(decoding: bytes[start..<offset], as: UTF8.self)
      // A number too large for a Double (1e999) is refused, as JSONSerialization refuses it.
      guard let value = Double(text), value.isFinite else { throw SyntaxError(offset: start) }
      return text
    }

    mutating func string() throws(SyntaxError) -> String {
      try expect("\"")
      var start = offset
      var plain: [UInt8] = []
      func flush() { plain += bytes[start..<offset] }
      while true {
        guard offset < bytes.count else { throw failure() }
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
          flush()
          offset += 1
          break
        }
        guard byte >= 0x20 else { throw failure() }
        guard byte == UInt8(ascii: "\\") else {
          offset += 1
          continue
        }
        flush()
        offset += 1
        guard offset < bytes.count else { throw failure() }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): plain.append(escape)
        case UInt8(ascii: "b"): plain.append(0x08)
        case UInt8(ascii: "f"): plain.append(0x0C)
        case UInt8(ascii: "n"): plain.append(0x0A)
        case UInt8(ascii: "r"): plain.append(0x0D)
        case UInt8(ascii: "t"): plain.append(0x09)
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code) {
            try expect("\\u")
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure() }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw failure() }
          plain += Array(String(scalar).utf8)
        default: throw failure()
        }
        start = offset
      }
      guard let text = String(validating: plain, as: UTF8.self) else { throw failure() }
      return text
    }

    mutating func hex4() throws(SyntaxError) -> UInt32 {
      guard offset + 4 <= bytes.count else { throw failure() }
      var value: UInt32 = 0
      for byte in bytes[offset..<offset + 4] {
        let digit: UInt8
        switch byte {
        case 0x30...0x39: digit = byte - 0x30
        case 0x41...0x46: digit = byte - 0x41 + 10
        case 0x61...0x66: digit = byte - 0x61 + 10
        default: throw failure()
        }
        value = value << 4 | UInt32(digit)
      }
      offset += 4
      return value
    }
  }
}
