import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// `PropertyTree`: declaration files read without `JSONSerialization`, checked against it.
@Suite struct PropertyTreeTests {
  @Test func jsonBecomesPlainValuesAsJSONSerializationReadsThem() throws {
    let text =
      #"{"s":"é\u00e9\"","i":42,"big":12345678901234,"r":-1.5,"e":1e3,"t":true,"f":false,"n":null,"a":[1,"x",[]],"o":{}}"#
    let tree = try #require(try PropertyTree.parseJSON(Data(text.utf8)) as? [String: Any])
    #expect(tree["s"] as? String == "éé\"")
    #expect(tree["i"] as? Int == 42)
    #expect(tree["big"] as? Int == 12_345_678_901_234)
    #expect(tree["r"] as? Double == -1.5)
    #expect(PropertyTree.number(tree["e"]!) == 1000)
    #expect(tree["t"] as? Bool == true && tree["f"] as? Bool == false)
    #expect(PropertyTree.number(tree["t"]!) == nil, "a Boolean is not a number")
    #expect(tree["n"] is PropertyTree.Null)
    let array = try #require(tree["a"] as? [Any])
    #expect(array.count == 3 && array[0] as? Int == 1 && array[1] as? String == "x")
    #expect((tree["o"] as? [String: Any])?.isEmpty == true)

    // The same document through JSONSerialization: the same keys and scalars.
    let reference = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(reference.keys) == Set(tree.keys))
    #expect(reference["s"] as? String == tree["s"] as? String)
    #expect((reference["r"] as? NSNumber)?.doubleValue == tree["r"] as? Double)
  }

  @Test func aBareValueIsADocument() throws {
    #expect(try PropertyTree.parseJSON(Data(#""name""#.utf8)) as? String == "name")
    #expect(try PropertyTree.parseJSON(Data(" 7 ".utf8)) as? Int == 7)
  }

  @Test(arguments: [
    ("{\"a\": x}", "around line 1, column 7"),
    ("{\n  \"a\": 1,\n  \"b\": ]\n}", "around line 3, column 8"),
    ("{\"a\": 1", "at the end"),
    ("", "at the end"),
  ])
  func badJSONSaysWhere(text: String, position: String) {
    #expect {
      _ = try PropertyTree.parseJSON(Data(text.utf8))
    } throws: { error in
      "\(error)".contains(position)
    }
  }

  @Test func xmlPropertyListsAreRead() throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict>
        <key>UTTypeIdentifier</key><string>com.example.x</string>
        <key>count</key><integer>3</integer>
        <key>ratio</key><real>0.5</real>
        <key>flag</key><true/>
        <key>list</key><array><string>public.data</string></array>
      </dict></plist>
      """
    let contents = Data(plist.utf8)
    #expect(!PropertyTree.isJSON(contents))
    let tree = try #require(try PropertyTree.parse(contents) as? [String: Any])
    #expect(tree["UTTypeIdentifier"] as? String == "com.example.x")
    #expect(tree["count"] as? Int == 3)
    #expect(PropertyTree.number(tree["ratio"]!) == 0.5)
    #expect(tree["flag"] as? Bool == true)
    #expect((tree["list"] as? [Any])?.first as? String == "public.data")
  }

  @Test func notAPropertyListIsRefused() {
    #expect(throws: PropertyTree.SyntaxError.self) {
      _ = try PropertyTree.parse(Data("this is not a declaration file".utf8))
    }
  }

  @Test func valuesAreWrittenAsCompactJSONWithSortedKeys() throws {
    let tree = try PropertyTree.parseJSON(
      Data(#"{"b":[1,2.5,"a/b"],"a":{"z":null,"y":true}}"#.utf8))
    let written = String(decoding: try PropertyTree.jsonData(tree), as: UTF8.self)
    #expect(written == #"{"a":{"y":true,"z":null},"b":[1,2.5,"a/b"]}"#)
  }

  @Test func whiteSpaceIsTrimmedAsFoundationTrimsIt() {
    for text in ["  a b \n", "\t\r\nx\u{00A0}", "", " \n ", "no space", "\u{2028}y\u{3000}"] {
      #expect(
        text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
        "\(text.debugDescription)")
    }
  }
}

/// Inputs the `declarations` fuzz target found (docs/FUZZING.md).
@Suite struct PropertyTreeFuzzFindingTests {
  /// A binary property list: `bplist00`, the objects, the offset table (one byte per
  /// offset), and the 32-byte trailer (one-byte offsets and references).
  static func binaryPropertyList(objects: [[UInt8]], top: UInt64 = 0) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let tableOffset = UInt64(bytes.count)
    bytes += offsets
    func big(_ value: UInt64) -> [UInt8] {
      (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    bytes += [0, 0, 0, 0, 0, 0, 1, 1] + big(UInt64(objects.count)) + big(top) + big(tableOffset)
    return Data(bytes)
  }

  /// A dictionary whose one value is itself: 15 bytes of objects that reading followed for
  /// ever (the fuzzer's 142-byte input, `Fuzz/Seeds/declarations/found-binary-plist-blowup`,
  /// held such a cycle and timed out; before the fix this test did not return).
  @Test func aPropertyListThatContainsItselfIsRefused() {
    let cycle = Self.binaryPropertyList(objects: [[0xD1, 1, 0], [0x51, UInt8(ascii: "a")]])
    #expect(throws: PropertyTree.SyntaxError.self) { try PropertyTree.parsePropertyList(cycle) }
    let file = DeclarationFile(path: "cycle.plist", contents: cycle)
    #expect(file.items.isEmpty)
    #expect(
      file.diagnostics.map(\.description).contains {
        $0.contains("nested more than 64 levels deep")
      })
  }

  /// Forty arrays each holding the next one twice: 2^40 values in 130 bytes, no cycle.
  @Test func aPropertyListOfTooManySharedValuesIsRefused() {
    let depth = 40
    var objects = (0..<depth).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] as [UInt8] }
    objects.append([0x10, 7])
    let tree = Self.binaryPropertyList(objects: objects)
    do {
      _ = try PropertyTree.parsePropertyList(tree)
      Issue.record("a property list of 2^\(depth) values was read")
    } catch {
      #expect(
        error.description.contains("more than \(PropertyTree.maximumValues) values"), "\(error)")
    }
  }

  /// Nesting up to the limit still reads.
  @Test func aPropertyListNestedToTheLimitReads() throws {
    let depth = PropertyTree.maximumDepth - 1
    var objects = (0..<depth).map { [0xA1, UInt8($0 + 1)] as [UInt8] }
    objects.append([0x10, 7])
    var value = try PropertyTree.parsePropertyList(Self.binaryPropertyList(objects: objects))
    for _ in 0..<depth { value = try #require((value as? [Any])?.first) }
    #expect(value as? Int == 7)
  }
}
