import Foundation
import JSONText
import Testing

@testable import FerryProtocol

/// The short paste's messages are written and read without `Codable`; both ways must agree
/// with the `Codable` forms the broker uses, byte for byte where the client writes.
@Suite struct CompactJSONTests {
  static let awkward = "a \"quoted\" \\ path/with/slashes\ttab\nline \u{1} é 😀"

  static func codable(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
  }

  /// Backspace and form feed: `Codable` writes `\b` and `\f`, and the compact writer wrote
  /// `\u0008` and `\u000c` (found by `Scripts/fuzz messages`, docs/FUZZING.md).
  static let controlCharacters = "back\u{8}space form\u{C}feed unit\u{1F}separator"

  @Test(arguments: [
    HelloRequest(), HelloRequest(client: "pbpaste"), HelloRequest(version: 7, client: awkward),
    HelloRequest(version: 0, client: controlCharacters),
  ])
  func helloIsWrittenAsCodableWritesIt(_ request: HelloRequest) throws {
    let compact = request.compactJSON.serialized
    #expect(
      String(decoding: compact, as: UTF8.self)
        == String(decoding: try Self.codable(request), as: UTF8.self))
    #expect(try JSONDecoder().decode(HelloRequest.self, from: Data(compact)) == request)
  }

  @Test(arguments: [
    ReadRequest(types: []), ReadRequest(types: ["public.utf8-plain-text", "public.plain-text"]),
    ReadRequest(pasteboard: "primary", types: ["image/png"], inPlace: true),
    ReadRequest(pasteboard: awkward, types: [awkward], inPlace: false),
  ])
  func readIsWrittenAsCodableWritesIt(_ request: ReadRequest) throws {
    let compact = request.compactJSON.serialized
    #expect(
      String(decoding: compact, as: UTF8.self)
        == String(decoding: try Self.codable(request), as: UTF8.self))
    #expect(try JSONDecoder().decode(ReadRequest.self, from: Data(compact)) == request)
  }

  @Test(arguments: [
    ReadResponse(type: "public.utf8-plain-text", requested: "public.plain-text"),
    ReadResponse(
      type: "public.data", requested: "application/octet-stream",
      file: FileReference(
        path: "/home/ana/.cache/ferry/spool/1-x/" + awkward, device: 2049, inode: UInt64.max - 5,
        size: 104_857_600)),
  ])
  func readAnswersAreReadAsCodableReadsThem(_ response: ReadResponse) throws {
    let parsed = try CompactJSON.parse(try Self.codable(response))
    #expect(try ReadResponse(compact: parsed) == response)
  }

  @Test func helloAnswersAndErrorsAreReadAsCodableReadsThem() throws {
    let hello = HelloResponse(version: 1, broker: "ferry", pid: 4242)
    #expect(try HelloResponse(compact: try CompactJSON.parse(try Self.codable(hello))) == hello)
    let error = ErrorBody(code: .notAvailable, message: Self.awkward)
    #expect(try ErrorBody(compact: try CompactJSON.parse(try Self.codable(error))) == error)
    // A code this version does not know comes through as itself.
    let unknown = try CompactJSON.parse(
      Array(#"{"code":"fromTheFuture","message":"m","extra":[1,{"a":null}]}"#.utf8))
    #expect(try ErrorBody(compact: unknown).code.rawValue == "fromTheFuture")
  }

  @Test func escapesAndNestingAreRead() throws {
    let text =
      #" { "a" : [ true , false , null , -1.5e3 , 12 ] , "b" : "\u00e9\ud83d\ude00\/\"\\\b\f\n\r\t" } "#
    let value = try CompactJSON.parse(Array(text.utf8))
    #expect(
      value["a"] == .array([.bool(true), .bool(false), .null, .number("-1.5e3"), .number("12")]))
    #expect(value["b"]?.string == "é😀/\"\\\u{8}\u{c}\n\r\t")
    #expect(value["a"]?.array?.last?.integer == 12)
  }

  @Test(arguments: [
    "", "{", "{\"a\":1,}", "[1,]", "\"open", "\"tab\there\"", "\"\\x\"", "\"\\ud800\"",
    "\"\\udc00x\"", "+1", "inf",
    "0x10", "{\"a\" 1}", "{1:2}", "[1] 2", "tru",
    String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
  ])
  func malformedJSONIsRefused(_ text: String) {
    #expect(throws: CompactJSON.SyntaxError.self) { try CompactJSON.parse(Array(text.utf8)) }
  }

  /// JSON's number grammar exactly (RFC 8259, section 6): before it, `01`, `1.`, `-` and
  /// `1e` were read as numbers because `Double`'s parser took them.
  @Test(arguments: [
    "01", "-01", "00", "1.", "-", "1e", "1e+", ".5", "-.5", "1.e3", "1..2", "1ee2", "--1", "+0",
    "1e999",
  ])
  func aNumberOutsideJSONsGrammarIsRefused(_ text: String) {
    #expect(throws: CompactJSON.SyntaxError.self) { try CompactJSON.parse(Array(text.utf8)) }
    #expect(throws: CompactJSON.SyntaxError.self) {
      try CompactJSON.parse(Array("[\(text)]".utf8))
    }
  }

  @Test(arguments: ["0", "-0", "7", "10", "-12", "0.5", "1.25e3", "1E-2", "1e+2", "0e0", "-0.0"])
  func aNumberInJSONsGrammarIsKeptAsWritten(_ text: String) throws {
    #expect(try CompactJSON.parse(Array("[\(text)]".utf8)).array?.first == .number(text))
    // JSONSerialization reads it too, to the same value.
    let reference = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [NSNumber]
    #expect(reference?.first?.doubleValue == Double(text))
  }

  @Test func invalidUTF8InAStringIsRefused() {
    #expect(throws: CompactJSON.SyntaxError.self) {
      try CompactJSON.parse([0x22, 0xC3, 0x28, 0x22])
    }
  }

  @Test func missingOrMistypedMembersAreNamed() throws {
    let noType = try CompactJSON.parse(Array(#"{"requested":"x"}"#.utf8))
    #expect(throws: CompactDecodingError.self) { try ReadResponse(compact: noType) }
    let badPid = try CompactJSON.parse(
      Array(#"{"version":1,"broker":"ferry","pid":99999999999}"#.utf8))
    #expect(throws: CompactDecodingError.self) { try HelloResponse(compact: badPid) }
  }
}
