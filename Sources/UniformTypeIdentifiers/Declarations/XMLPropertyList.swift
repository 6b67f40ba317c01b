import FoundationEssentials

/// A reader of XML property lists (Apple's PropertyList-1.0 DTD) that reads only what that
/// DTD allows and throws, naming the line, on anything else.
///
/// Ferry's own instead of FoundationEssentials' `PropertyListDecoder`, whose binary reader
/// traps on malformed input (``BinaryPropertyList``): one reader of declaration files whose
/// every path is Ferry's, checked by the `declarations` fuzz target.
///
/// What it takes: an optional XML declaration, `DOCTYPE` (without an internal subset) and
/// comments; one `plist` element (or a bare value) holding `dict`, `array`, `key`, `string`,
/// `integer` (decimal, or hexadecimal after `0x`), `real`, `true`, `false`, `date` (ISO 8601,
/// `2001-01-01T00:00:00Z`) and `data` (Base64); the five named entities, numeric character
/// references and CDATA sections in text; comments between elements.
struct XMLPropertyList {
  /// Why a list could not be read, in words for the file's author.
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0
  private var values = 0

  /// Reads `contents`, a whole XML property list in UTF-8.
  ///
  /// - Throws: ``Malformed`` naming the first thing that is wrong and its line.
  static func read(_ contents: [UInt8]) throws(Malformed) -> Any {
    var reader = XMLPropertyList(bytes: contents)
    return try reader.document()
  }

  private init(bytes: [UInt8]) {
    // A UTF-8 byte order mark is allowed before the declaration.
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
  }

  private mutating func document() throws(Malformed) -> Any {
    try skipMisc()
    if starts(with: "<?xml") {
      try skip(past: "?>", what: "the XML declaration")
      try skipMisc()
    }
    if starts(with: "<!DOCTYPE") {
      try skipDoctype()
      try skipMisc()
    }
    let value: Any
    let tag = try openTag()
    if tag.name == "plist" {
      try skipMisc()
      if tag.isEmpty {
        throw malformed("the plist element is empty")
      }
      value = try self.value(try openTag())
      try skipMisc()
      try closeTag("plist")
    } else {
      value = try self.value(tag)
    }
    try skipMisc()
    guard position == bytes.count else { throw malformed("text follows the property list") }
    return value
  }

  /// An element's name, and whether it closed itself (`<true/>`).
  private struct Tag {
    var name: String
    var isEmpty: Bool
  }

  /// The value of the element `tag` opened.
  private mutating func value(_ tag: Tag) throws(Malformed) -> Any {
    depth += 1
    values += 1
    defer { depth -= 1 }
    if depth > PropertyTree.maximumDepth {
      throw malformed("nested more than \(PropertyTree.maximumDepth) levels deep")
    }
    if values > PropertyTree.maximumValues {
      throw malformed("more than \(PropertyTree.maximumValues) values")
    }
    switch tag.name {
    case "dict":
      var members: [String: Any] = [:]
      if tag.isEmpty { return members }
      while true {
        try skipMisc()
        if starts(with: "</") { break }
        let key = try openTag()
        guard key.name == "key" else {
          throw malformed("a dict holds <\(key.name)> where a <key> belongs")
        }
        let name = key.isEmpty ? "" : try text(closing: "key")
        try skipMisc()
        // Of a key named twice, the last wins, as in JSON.
        members[name] = try value(try openTag())
      }
      try closeTag("dict")
      return members
    case "array":
      var elements: [Any] = []
      if tag.isEmpty { return elements }
      while true {
        try skipMisc()
        if starts(with: "</") { break }
        elements.append(try value(try openTag()))
      }
      try closeTag("array")
      return elements
    case "true", "false":
      if !tag.isEmpty { try closeTag(tag.name) }
      return tag.name == "true"
    case "string":
      return tag.isEmpty ? "" : try text(closing: "string")
    case "integer":
      let text = tag.isEmpty ? "" : try self.text(closing: "integer")
      guard let number = Self.integer(text.trimmingWhitespace()) else {
        throw malformed("'\(text)' is not an integer that fits in 64 bits")
      }
      return number
    case "real":
      let text = (tag.isEmpty ? "" : try self.text(closing: "real")).trimmingWhitespace()
      guard let number = Double(text) else { throw malformed("'\(text)' is not a real number") }
      return number
    case "date":
      let text = (tag.isEmpty ? "" : try self.text(closing: "date")).trimmingWhitespace()
      guard let date = Self.date(text) else {
        throw malformed("'\(text)' is not a date of the form 2001-01-01T00:00:00Z")
      }
      return date
    case "data":
      let text = tag.isEmpty ? "" : try self.text(closing: "data")
      let base64 = text.utf8.filter { !" \t\r\n".utf8.contains($0) }
      guard let data = Data(base64Encoded: Data(base64)) else {
        throw malformed("the data element is not Base64")
      }
      return data
    default:
      throw malformed("<\(tag.name)> is not a property-list element")
    }
  }

  /// A start tag: `<name attributes>` or `<name attributes/>`.
  private mutating func openTag() throws(Malformed) -> Tag {
    guard position < bytes.count else { throw malformed("the property list ends too soon") }
    guard bytes[position] == UInt8(ascii: "<"), !starts(with: "</") else {
      throw malformed("text where an element belongs")
    }
    position += 1
    let name = self.name()
    guard !name.isEmpty else { throw malformed("an element without a name") }
    // Attributes (plist's version) are skipped; a quoted value may hold '>'.
    var quote: UInt8?
    while position < bytes.count {
      let byte = bytes[position]
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        position += 1
        return Tag(name: name, isEmpty: false)
      } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
        bytes[position + 1] == UInt8(ascii: ">")
      {
        position += 2
        return Tag(name: name, isEmpty: true)
      }
      position += 1
    }
    throw malformed("the tag <\(name)> is not closed")
  }

  /// `</name>`, with blanks before the `>`.
  private mutating func closeTag(_ name: String) throws(Malformed) {
    guard starts(with: "</") else { throw malformed("<\(name)> is not closed") }
    position += 2
    let found = self.name()
    skipBlanks()
    guard found == name, position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
      throw malformed("</\(found)> closes <\(name)>")
    }
    position += 1
  }

  /// The text of an element up to its end tag: characters, references and CDATA sections.
  private mutating func text(closing name: String) throws(Malformed) -> String {
    var text: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[") {
          position += 9
          let start = position
          try skip(past: "]]>", what: "a CDATA section")
          text += bytes[start..<(position - 3)]
          continue
        }
        if starts(with: "<!--") {
          try skip(past: "-->", what: "a comment")
          continue
        }
        try closeTag(name)
        return String(decoding: text, as: UTF8.self)
      }
      if byte == UInt8(ascii: "&") {
        text += try reference()
        continue
      }
      text.append(byte)
      position += 1
    }
    throw malformed("<\(name)> is not closed")
  }

  /// An entity or character reference at `&`, as UTF-8.
  private mutating func reference() throws(Malformed) -> [UInt8] {
    guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
      throw malformed("an '&' that begins no reference")
    }
    let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
    position = end + 1
    switch name {
    case "lt": return Array("<".utf8)
    case "gt": return Array(">".utf8)
    case "amp": return Array("&".utf8)
    case "quot": return Array("\"".utf8)
    case "apos": return Array("'".utf8)
    default:
      let code: UInt32? =
        name.hasPrefix("#x")
        ? UInt32(name.dropFirst(2), radix: 16)
        : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
      guard let code, code != 0, let scalar = Unicode.Scalar(code) else {
        throw malformed("'&\(name);' is not a reference XML defines")
      }
      return Array(String(Character(scalar)).utf8)
    }
  }

  /// An element name: letters, digits, `-`, `_`, `.` and `:`.
  private mutating func name() -> String {
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      let isNameByte =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || "-_.:".utf8.contains(byte)
      guard isNameByte else { break }
      position += 1
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// Blanks and comments between elements.
  private mutating func skipMisc() throws(Malformed) {
    while true {
      skipBlanks()
      guard starts(with: "<!--") else { return }
      try skip(past: "-->", what: "a comment")
    }
  }

  private mutating func skipBlanks() {
    while position < bytes.count, " \t\r\n".utf8.contains(bytes[position]) { position += 1 }
  }

  /// `<!DOCTYPE …>`: its quoted identifiers may hold `>`; an internal subset is refused.
  private mutating func skipDoctype() throws(Malformed) {
    var quote: UInt8?
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: "[") {
        throw malformed(
          "the DOCTYPE declares entities of its own, which a property list has none of")
      } else if byte == UInt8(ascii: ">") {
        return
      }
    }
    throw malformed("the DOCTYPE is not closed")
  }

  /// Moves past the next `end`.
  private mutating func skip(past end: String, what: String) throws(Malformed) {
    let pattern = Array(end.utf8)
    var index = position
    while index + pattern.count <= bytes.count {
      if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
        position = index + pattern.count
        return
      }
      index += 1
    }
    throw malformed("\(what) is not closed")
  }

  private func starts(with prefix: String) -> Bool {
    bytes[position...].starts(with: prefix.utf8)
  }

  private func malformed(_ words: String) -> Malformed {
    let line = bytes[..<min(position, bytes.count)].reduce(1) {
      $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0)
    }
    return Malformed(description: "\(words) (line \(line))")
  }

  /// A decimal integer, or a hexadecimal one after `0x`, with an optional sign.
  static func integer(_ text: String) -> Int? {
    var digits = Substring(text)
    var negative = false
    if let sign = digits.first, sign == "-" || sign == "+" {
      negative = sign == "-"
      digits = digits.dropFirst()
    }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && ($0.isNumber || radix == 16) })
    else { return nil }
    guard let magnitude = UInt64(digits, radix: radix) else { return nil }
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { return nil }
      return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
    }
    guard magnitude <= UInt64(Int.max) else { return nil }
    return Int(magnitude)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`, the one form Apple's property lists write, in UTC.
  static func date(_ text: String) -> Date? {
    let characters = Array(text.utf8)
    guard characters.count == 20, characters[19] == UInt8(ascii: "Z") else { return nil }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    for (index, separator) in separators where characters[index] != separator.asciiValue {
      return nil
    }
    func number(_ range: Range<Int>) -> Int? {
      guard characters[range].allSatisfy({ (48...57).contains($0) }) else { return nil }
      return characters[range].reduce(0) { $0 * 10 + Int($1 - 48) }
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
    let shifted = month <= 2 ? year - 1 : year
    let era = shifted / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: Double(seconds))
  }
}
