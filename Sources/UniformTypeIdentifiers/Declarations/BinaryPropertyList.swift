import FoundationEssentials

/// A reader of binary property lists (`bplist00`) that checks every length, offset and
/// reference against the bytes it has before it reads them.
///
/// FoundationEssentials' `PropertyListDecoder` traps on some malformed binary lists (a UTF-16
/// string whose length runs past the end of the data stopped the broker with signal 4:
/// docs/FUZZING.md, finding 8), and a declaration file is bytes from anyone who can run
/// `ferry register`. This reader throws instead; it gives the same values
/// (``PropertyTree``'s) for every well-formed list.
///
/// The format (Apple's CFBinaryPList.c): the header `bplist00`, the objects, a table of their
/// offsets, and a 32-byte trailer giving the table's place, the width of an offset and of an
/// object reference, the number of objects and the top one. An object is a marker byte (its
/// high nibble the kind, its low nibble a size or count, `0xF` for a count that follows as an
/// integer object) and its bytes; arrays and dictionaries hold references, indexes into the
/// offset table, so a list can share an object or contain itself: ``PropertyTree``'s limits
/// on depth and on values counted with every reuse bound what a hostile list costs.
struct BinaryPropertyList {
  /// Why a list could not be read, in words for the file's author.
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  private let bytes: [UInt8]
  /// Where the objects end: the offset table, which lies between them and the trailer.
  private let objectsEnd: Int
  /// How many objects the offset table lists, and the width of one entry.
  private let objectCount: Int
  private let offsetWidth: Int
  private let referenceWidth: Int
  private let top: Int
  private var depth = 0
  private var values = 0
  /// Each object read, by index: a shared object is read once and every reference to it
  /// shares its storage (`String`, `Data` and arrays are copied on write), so 9,999
  /// references to a 400 KB string cost 400 KB, not 4 GB.
  /// Each with the values it holds, itself included, which every reference counts again.
  private var read: [Int: (value: Any, values: Int)] = [:]

  /// Whether `contents` begins as a binary property list does.
  static func isBinary(_ contents: some Collection<UInt8>) -> Bool {
    contents.starts(with: "bplist".utf8)
  }

  /// Reads `contents`, a whole binary property list.
  ///
  /// - Throws: ``Malformed`` naming the first thing that is wrong.
  static func read(_ contents: [UInt8]) throws(Malformed) -> Any {
    var list = try BinaryPropertyList(contents)
    return try list.object(list.top)
  }

  private init(_ bytes: [UInt8]) throws(Malformed) {
    self.bytes = bytes
    guard bytes.starts(with: "bplist00".utf8) else {
      let version = bytes.prefix(8).dropFirst(6)
      let printable = version.allSatisfy { (0x21...0x7E).contains($0) }
      let named =
        printable
        ? "'\(String(decoding: version, as: UTF8.self))'"
        : version.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
      throw Malformed(description: "binary property list version \(named) is not 00")
    }
    let trailerSize = 32
    guard bytes.count >= 8 + 1 + trailerSize else {
      throw Malformed(description: "a binary property list of \(bytes.count) bytes is too short")
    }
    let trailer = bytes.count - trailerSize
    offsetWidth = Int(bytes[trailer + 6])
    referenceWidth = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetWidth), (1...8).contains(referenceWidth) else {
      throw Malformed(
        description:
          "the trailer gives offsets of \(offsetWidth) and references of \(referenceWidth) bytes")
    }
    let count = Self.unsigned(bytes[(trailer + 8)..<(trailer + 16)])
    let top = Self.unsigned(bytes[(trailer + 16)..<(trailer + 24)])
    let table = Self.unsigned(bytes[(trailer + 24)..<(trailer + 32)])
    // The table lies after the header and ends at the trailer, so its entries fit the file.
    guard table >= 9, table <= UInt64(trailer),
      count >= 1, count <= (UInt64(trailer) - table) / UInt64(offsetWidth)
    else {
      throw Malformed(
        description:
          "the trailer's offset table (\(count) objects at byte \(table)) does not fit the file")
    }
    guard top < count else {
      throw Malformed(description: "the top object \(top) is not one of the \(count) objects")
    }
    objectsEnd = Int(table)
    self.top = Int(top)
    objectCount = Int(count)
  }

  /// Where object `index` begins, from the offset table: checked when the object is read, as
  /// CoreFoundation does, so an entry nothing refers to is never looked at.
  private func offset(of index: Int) throws(Malformed) -> Int {
    let start = objectsEnd + index * offsetWidth
    let offset = Self.unsigned(bytes[start..<(start + offsetWidth)])
    guard offset >= 8, offset < UInt64(objectsEnd) else {
      throw Malformed(
        description:
          "object \(index)'s offset \(offset) is outside the objects (8..<\(objectsEnd))")
    }
    return Int(offset)
  }

  /// The object at `index` of the offset table, and everything it holds.
  private mutating func object(_ index: Int) throws(Malformed) -> Any {
    depth += 1
    defer { depth -= 1 }
    if depth > PropertyTree.maximumDepth {
      throw Malformed(description: "nested more than \(PropertyTree.maximumDepth) levels deep")
    }
    // A reused object counts as many values as it holds: a consumer walks every reference.
    if let (value, held) = read[index] {
      try count(held)
      return value
    }
    let before = values
    try count(1)
    let value = try decode(index)
    read[index] = (value, values - before)
    return value
  }

  /// Counts `more` values against ``PropertyTree/maximumValues``.
  private mutating func count(_ more: Int) throws(Malformed) {
    values += more
    if values > PropertyTree.maximumValues {
      throw Malformed(description: "more than \(PropertyTree.maximumValues) values")
    }
  }

  /// Decodes the object at `index` (``object(_:)`` counts it and keeps it).
  private mutating func decode(_ index: Int) throws(Malformed) -> Any {
    let start = try offset(of: index)
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x00: return PropertyTree.Null()
      case 0x08: return false
      case 0x09: return true
      default: throw problem(index, "has the unknown marker 0x\(hex(marker))")
      }
    case 0x1:
      return try integer(at: start, index: index)
    case 0x2:
      let body = try range(index, from: start + 1, count: 1 << low)
      switch low {
      case 2: return Double(Float(bitPattern: UInt32(Self.unsigned(bytes[body]))))
      case 3: return Double(bitPattern: Self.unsigned(bytes[body]))
      default: throw problem(index, "is a real of \(1 << low) bytes")
      }
    case 0x3:
      guard marker == 0x33 else { throw problem(index, "has the unknown marker 0x\(hex(marker))") }
      let body = try range(index, from: start + 1, count: 8)
      let seconds = Double(bitPattern: Self.unsigned(bytes[body]))
      guard seconds.isFinite else { throw problem(index, "is a date that is not a number") }
      return Date(timeIntervalSinceReferenceDate: seconds)
    case 0x4:
      let (count, first) = try length(low, at: start, index: index)
      return Data(bytes[try range(index, from: first, count: count)])
    case 0x5:
      let (count, first) = try length(low, at: start, index: index)
      // ASCII by the format; any other byte is taken as Latin-1, as CoreFoundation does.
      let body = bytes[try range(index, from: first, count: count)]
      return String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
    case 0x6:
      let (count, first) = try length(low, at: start, index: index)
      let (units, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw problem(index, "is a string of \(count) UTF-16 units") }
      let body = try range(index, from: first, count: units)
      let utf16 = stride(from: body.lowerBound, to: body.upperBound, by: 2).map {
        UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
      }
      return String(decoding: utf16, as: UTF16.self)
    case 0x8:
      throw problem(index, "is a keyed archive's UID, which a declaration file has no use for")
    case 0xA, 0xC:
      let (count, first) = try length(low, at: start, index: index)
      let references = try self.references(index, from: first, count: count)
      var elements: [Any] = []
      elements.reserveCapacity(count)
      for reference in references { elements.append(try object(reference)) }
      return elements
    case 0xD:
      let (count, first) = try length(low, at: start, index: index)
      let (both, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw problem(index, "is a dictionary of \(count) entries") }
      let references = try self.references(index, from: first, count: both)
      var members: [String: Any] = [:]
      for entry in 0..<count {
        guard let key = try object(references[entry]) as? String else {
          throw problem(index, "has a key that is not a string")
        }
        // Of a key named twice, the last wins, as in JSON: the same answer every time.
        members[key] = try object(references[count + entry])
      }
      return members
    default:
      throw problem(index, "has the unknown marker 0x\(hex(marker))")
    }
  }

  /// The integer object at `start`: 1, 2 or 4 bytes unsigned, 8 signed, or 16 of which the
  /// low 8 are taken when the high ones only extend their sign.
  private func integer(at start: Int, index: Int) throws(Malformed) -> Int {
    let low = Int(bytes[start] & 0x0F)
    guard low <= 4 else { throw problem(index, "is an integer of \(1 << low) bytes") }
    let body = try range(index, from: start + 1, count: 1 << low)
    switch low {
    case 0...2: return Int(Self.unsigned(bytes[body]))
    case 3: return Int(truncatingIfNeeded: Self.unsigned(bytes[body]))
    default:
      let high = Self.unsigned(bytes[body.prefix(8)])
      let value = Int(truncatingIfNeeded: Self.unsigned(bytes[body.suffix(8)]))
      guard high == (value < 0 ? UInt64.max : 0) else {
        throw problem(index, "is an integer past 64 bits")
      }
      return value
    }
  }

  /// An object's count, from its marker's low nibble or the integer that follows it, and
  /// where its contents begin.
  private func length(_ low: Int, at start: Int, index: Int) throws(Malformed) -> (Int, Int) {
    guard low == 0x0F else { return (low, start + 1) }
    let next = start + 1
    guard next < objectsEnd, bytes[next] >> 4 == 0x1 else {
      throw problem(index, "has a count that is not an integer")
    }
    let count = try integer(at: next, index: index)
    guard count >= 0 else { throw problem(index, "has the count \(count)") }
    return (count, next + 1 + (1 << Int(bytes[next] & 0x0F)))
  }

  /// `count` bytes from `first`, when they lie within the objects.
  private func range(_ index: Int, from first: Int, count: Int) throws(Malformed) -> Range<Int> {
    guard count >= 0, first <= objectsEnd, count <= objectsEnd - first else {
      throw problem(index, "runs past the end of the objects (\(count) bytes at byte \(first))")
    }
    return first..<(first + count)
  }

  /// `count` object references from `first`, each checked to name an object.
  private func references(_ index: Int, from first: Int, count: Int) throws(Malformed) -> [Int] {
    let (size, overflow) = count.multipliedReportingOverflow(by: referenceWidth)
    guard !overflow else { throw problem(index, "holds \(count) references") }
    let body = try range(index, from: first, count: size)
    var references: [Int] = []
    references.reserveCapacity(count)
    for start in stride(from: body.lowerBound, to: body.upperBound, by: referenceWidth) {
      let reference = Self.unsigned(bytes[start..<(start + referenceWidth)])
      guard reference < UInt64(objectCount) else {
        throw problem(index, "refers to object \(reference) of \(objectCount)")
      }
      references.append(Int(reference))
    }
    return references
  }

  private func problem(_ index: Int, _ words: String) -> Malformed {
    let start = (try? offset(of: index)).map { " at byte \($0)" } ?? ""
    return Malformed(description: "object \(index)\(start) \(words)")
  }

  private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }

  /// Up to eight bytes as a big-endian unsigned integer.
  private static func unsigned(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
  }
}
