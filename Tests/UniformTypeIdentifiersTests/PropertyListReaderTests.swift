import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// Ferry's own property-list readers (`BinaryPropertyList`, `XMLPropertyList`): the values
/// full Foundation's `PropertyListSerialization` reads from every well-formed list, and one
/// line, never a trap, for a damaged one.
@Suite struct PropertyListReaderTests {
  /// A property list of every kind of value a declaration file may hold.
  static var sample: [String: Any] {
    [
      "UTExportedTypeDeclarations": [
        [
          "UTTypeIdentifier": "org.example.recipe",
          "UTTypeConformsTo": ["public.json", "public.text"],
          "UTTypeDescription": "Recette à la crème — 食谱 😀",
          "UTTypeVersion": 3,
          "UTTypeTagSpecification": ["public.filename-extension": ["recipe"]],
        ]
      ],
      "negative": -42,
      "large": 12_345_678_901_234,
      "largest": Int.max,
      "smallest": Int.min,
      "ratio": 0.25,
      "flag": true,
      "off": false,
      "empty": "",
      "none": [Any](),
      "nothing": [String: Any](),
      "bytes": Data([0, 1, 2, 255]),
      "when": Date(timeIntervalSinceReferenceDate: 86_400 * 365),
      "markup": "<a href=\"x\">&amp;</a>",
    ]
  }

  static func serialized(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: sample, format: format, options: 0)
  }

  /// The two trees hold the same keys and values.
  static func expectEqual(_ mine: Any, _ reference: Any, at path: String = "") {
    switch (mine, reference) {
    case (let a as [String: Any], let b as [String: Any]):
      #expect(Set(a.keys) == Set(b.keys), "keys at \(path)")
      for (key, value) in a where b[key] != nil {
        expectEqual(value, b[key]!, at: path + "/" + key)
      }
    case (let a as [Any], let b as [Any]):
      #expect(a.count == b.count, "count at \(path)")
      for (x, y) in zip(a, b) { expectEqual(x, y, at: path + "[]") }
    case (let a as String, let b as String): #expect(a == b, "\(path)")
    case (let a as Bool, let b as NSNumber) where "\(type(of: b))".contains("Bool"):
      #expect(a == b.boolValue, "\(path)")
    case (let a as Bool, let b as Bool): #expect(a == b, "\(path)")
    case (let a as Int, let b as NSNumber): #expect(Int64(a) == b.int64Value, "\(path)")
    case (let a as Int, let b as Int): #expect(a == b, "\(path)")
    case (let a as Double, let b as NSNumber): #expect(a == b.doubleValue, "\(path)")
    case (let a as Double, let b as Double): #expect(a == b, "\(path)")
    case (let a as Data, let b as Data): #expect(a == b, "\(path)")
    case (let a as Date, let b as Date):
      #expect(a.timeIntervalSinceReferenceDate == b.timeIntervalSinceReferenceDate, "\(path)")
    default:
      Issue.record("\(path): \(type(of: mine)) \(mine) against \(type(of: reference)) \(reference)")
    }
  }

  @Test(arguments: [
    PropertyListSerialization.PropertyListFormat.binary, .xml,
  ])
  func aListFoundationWritesReadsAsFoundationReadsIt(
    _ format: PropertyListSerialization.PropertyListFormat
  ) throws {
    let data = try Self.serialized(format)
    let mine = try PropertyTree.parsePropertyList(data)
    let reference = try PropertyListSerialization.propertyList(from: data, format: nil)
    Self.expectEqual(mine, reference)
    Self.expectEqual(mine, Self.sample)
  }

  /// The objects of a binary list Foundation wrote, as offsets: where each string's marker is.
  static func stringMarkers(in data: [UInt8]) -> [Int] {
    let trailer = data.count - 32
    let width = Int(data[trailer + 6])
    let count = data[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
    let table = data[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
    return (0..<count).compactMap { index in
      let start = table + index * width
      let offset = data[start..<(start + width)].reduce(0) { $0 << 8 | Int($1) }
      return [0x5, 0x6].contains(data[offset] >> 4) ? offset : nil
    }
  }

  /// Each string of a well-formed binary declaration file given a length that runs past the
  /// end of the data, as the 444-byte file that stopped the broker had (signal 4 in
  /// FoundationEssentials' decoder): every such sibling is one malformed diagnostic.
  @Test func aStringWhoseLengthRunsPastTheEndIsOneLineNotATrap() throws {
    let data = [UInt8](try Self.serialized(.binary))
    let markers = Self.stringMarkers(in: data)
    #expect(markers.count > 10)
    for offset in markers {
      for length in [0x0E, 0x0F] {
        var damaged = data
        if length == 0x0E {
          damaged[offset] = damaged[offset] & 0xF0 | 0x0E
        } else {
          // A count of 0x7FFF units after the marker, past any real file; the bytes after it
          // are taken for the string.
          damaged[offset] = damaged[offset] & 0xF0 | 0x0F
          damaged.replaceSubrange((offset + 1)..<(offset + 4), with: [0x11, 0x7F, 0xFF])
        }
        let file = DeclarationFile(path: "damaged.plist", contents: Data(damaged))
        for diagnostic in file.diagnostics {
          #expect(!diagnostic.description.contains("\n"), "\(diagnostic)")
        }
      }
      // The three bytes written after the marker stay inside this string only if it holds
      // three bytes or more; a shorter one would clobber the next object or the offset
      // table, whichever the dictionary's order (seeded per process) put after it.
      let nibble = data[offset] & 0x0F
      let contentBytes = Int(nibble) * (data[offset] >> 4 == 0x6 ? 2 : 1)
      guard nibble == 0x0F || contentBytes >= 3 else { continue }
      var damaged = data
      damaged[offset] = damaged[offset] & 0xF0 | 0x0F
      damaged.replaceSubrange((offset + 1)..<(offset + 4), with: [0x11, 0x7F, 0xFF])
      do {
        _ = try PropertyTree.parsePropertyList(Data(damaged))
        Issue.record("a string of 0x7FFF units at byte \(offset) was read")
      } catch {
        #expect(error.description.contains("runs past the end"), "\(error)")
      }
    }
  }

  /// Every truncation of a well-formed binary list, and every byte of it changed: the reader
  /// answers each (a value or one line).
  @Test func everyTruncationAndEveryChangedByteIsAnswered() throws {
    let data = [UInt8](try Self.serialized(.binary))
    for count in 0..<data.count {
      #expect(throws: PropertyTree.SyntaxError.self) {
        try PropertyTree.parsePropertyList(Data(data.prefix(count)))
      }
    }
    for index in data.indices {
      for value: UInt8 in [0x00, 0x0F, 0x7F, 0x80, 0xFF, data[index] ^ 0x01] {
        var changed = data
        changed[index] = value
        do {
          _ = try PropertyTree.parsePropertyList(Data(changed))
        } catch {
          #expect(!error.description.contains("\n"))
        }
      }
    }
  }

  /// 9,999 references to one 400 KB data object: read once, its storage shared by every
  /// element (before, each reference made a copy: a 410 KB file took 3.9 GB and 27 s).
  @Test func aSharedObjectIsReadOnceAndShared() throws {
    let size = 400_000
    var bytes = Array("bplist00".utf8)
    let offsets = [bytes.count, bytes.count + 4 + 9_999]
    bytes += [0xAF, 0x11, 0x27, 0x0F] + [UInt8](repeating: 1, count: 9_999)
    bytes += [0x4F, 0x12, 0x00, 0x06, 0x1A, 0x80] + [UInt8](repeating: 0x5A, count: size)
    let table = bytes.count
    for offset in offsets {
      bytes += (0..<4).reversed().map { UInt8(truncatingIfNeeded: offset >> (8 * $0)) }
    }
    func big(_ value: Int) -> [UInt8] {
      (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    bytes += [0, 0, 0, 0, 0, 0, 4, 1] + big(2) + big(0) + big(table)
    let list = try #require(try PropertyTree.parsePropertyList(Data(bytes)) as? [Any])
    #expect(list.count == 9_999)
    let first = try #require(list.first as? Data)
    let last = try #require(list.last as? Data)
    #expect(first.count == size)
    let addresses = [first, last].map { data in
      data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }
    #expect(addresses[0] == addresses[1], "every reference shares the one object's bytes")
  }

  @Test(arguments: [
    ("<plist><dict><key>a</key></dict></plist>", "where an element belongs"),
    ("<plist><array>", "ends too soon"),
    ("<plist><dict><string>a</string></dict></plist>", "where a <key> belongs"),
    ("<plist><integer>12x</integer></plist>", "not an integer"),
    ("<plist><integer>99999999999999999999</integer></plist>", "not an integer"),
    ("<plist><real>fast</real></plist>", "not a real number"),
    ("<plist><date>yesterday</date></plist>", "not a date"),
    ("<plist><data>@@@</data></plist>", "not Base64"),
    ("<plist><string>a &bogus; b</string></plist>", "not a reference"),
    ("<plist><string>a</strong></plist>", "closes <string>"),
    ("<plist><array><string>a</string>", "ends too soon"),
    ("<plist><string>a", "is not closed"),
    ("<!DOCTYPE plist [<!ENTITY x \"y\">]><plist><string>&x;</string></plist>", "DOCTYPE"),
    ("<plist><widget/></plist>", "not a property-list element"),
    ("<plist><string>a</string></plist> trailing", "text follows"),
    ("(a, b)", "neither JSON"),
  ])
  func aMalformedXMLListIsOneLineNamingIt(text: String, words: String) {
    do {
      _ = try PropertyTree.parse(Data(text.utf8))
      Issue.record("read: \(text)")
    } catch {
      #expect(error.description.contains(words), "\(error)")
      #expect(!error.description.contains("\n"))
    }
  }

  @Test func xmlTextKeepsReferencesCDATAAndComments() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment before -->
      <plist version="1.0">
      <dict>
        <key>a&amp;b</key><string>&lt;&#x41;&#66;&gt; <![CDATA[<raw & text>]]><!-- gone --></string>
        <key>hex</key><integer>0x1F</integer>
        <key>empty</key><string/>
        <key>when</key><date>2001-01-02T00:00:00Z</date>
      </dict>
      </plist>
      """
    let tree = try #require(try PropertyTree.parse(Data(text.utf8)) as? [String: Any])
    #expect(tree["a&b"] as? String == "<AB> <raw & text>")
    #expect(tree["hex"] as? Int == 31)
    #expect(tree["empty"] as? String == "")
    #expect((tree["when"] as? Date)?.timeIntervalSinceReferenceDate == 86_400)
  }

  /// Dates as Foundation's XML writer spells them, checked against its reader.
  @Test(arguments: [-978_307_200.0, 0, 86_399, 1e9, 2e9, -1e10])
  func xmlDatesReadAsFoundationReadsThem(_ seconds: Double) throws {
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["d": Date(timeIntervalSinceReferenceDate: seconds)], format: .xml,
      options: 0)
    let mine = try #require((try PropertyTree.parse(data) as? [String: Any])?["d"] as? Date)
    #expect(mine.timeIntervalSinceReferenceDate == seconds)
  }
}
