import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@Suite struct ConverterDeclarationJSONFieldTests {
  func export(_ json: String, _ path: String) async throws -> String {
    let converter = try JSONFieldConverter(from: .json, to: .utf8PlainText, fieldPath: path)
    let payload = try await converter.convert(
      .data(Data(json.utf8)), from: .json, to: .utf8PlainText)
    return utf8Text(try payload.data())
  }

  func failure(_ json: String, _ path: String) async -> JSONFieldError? {
    await #expect(throws: JSONFieldError.self) { try await export(json, path) }
  }

  @Test func topLevelKey() async throws {
    #expect(try await export(#"{"name": "Juan", "bio": "x"}"#, "name") == "Juan")
  }

  @Test func nestedPath() async throws {
    let json = #"{"address": {"city": {"name": "Lyon", "zip": "69001"}}}"#
    #expect(try await export(json, "address.city.name") == "Lyon")
  }

  @Test func arrayIndex() async throws {
    let json = #"{"members": [{"name": "Ada"}, {"name": "Grace"}]}"#
    #expect(try await export(json, "members.0.name") == "Ada")
    #expect(try await export(json, "members.1.name") == "Grace")
    #expect(try await export(#"[["a", "b"], ["c"]]"#, "1.0") == "c")
  }

  @Test func numericKeyOfAnObjectIsAKey() async throws {
    #expect(try await export(#"{"2024": {"0": "zero"}}"#, "2024.0") == "zero")
  }

  @Test(arguments: [
    (#"{"n": 42}"#, "42"),
    (#"{"n": -1.5}"#, "-1.5"),
    (#"{"n": true}"#, "true"),
    (#"{"n": false}"#, "false"),
    (#"{"n": "a/b \"q\""}"#, #"a/b "q""#),
    (#"{"n": {"b": [1, 2], "a": {"z": null}}}"#, #"{"a":{"z":null},"b":[1,2]}"#),
    (#"{"n": ["x", 1, true]}"#, #"["x",1,true]"#),
  ])
  func valueKinds(json: String, expected: String) async throws {
    #expect(try await export(json, "n") == expected)
  }

  @Test func missingKeyNamesTheStepThatFailed() async {
    let error = await failure(#"{"address": {"street": "x"}}"#, "address.city")
    #expect(error == .missingField(path: "address.city", reason: "'address' has no key 'city'"))
    #expect(
      error?.description == "the JSON has no field 'address.city': 'address' has no key 'city'")
  }

  @Test func indexPastTheEndSaysHowManyElements() async {
    let error = await failure(
      #"{"members": [{"name": "Ada"}, {"name": "Grace"}]}"#, "members.2.name")
    #expect(error == .missingField(path: "members.2.name", reason: "'members' has 2 elements"))
  }

  @Test func wordOnAnArrayAndPathThroughAStringAreMissing() async {
    #expect(
      await failure(#"{"members": []}"#, "members.first")
        == .missingField(
          path: "members.first", reason: "'members' is an array and 'first' is not an index"))
    #expect(
      await failure(#"{"name": "Ada"}"#, "name.first")
        == .missingField(path: "name.first", reason: "'name' is a string, not an object"))
    #expect(
      await failure(#"{"members": [1]}"#, "members.-1")
        == .missingField(
          path: "members.-1", reason: "'members' is an array and '-1' is not an index"))
  }

  @Test func nullIsRefused() async {
    #expect(await failure(#"{"name": null}"#, "name") == .nullField(path: "name"))
  }

  @Test(arguments: ["not json at all", #"{"name": "#, "", "\u{FF}"])
  func nonJSONInputIsRefused(input: String) async {
    let error = await failure(input, "name")
    guard case .notJSON(let type, let reason)? = error else {
      Issue.record("expected notJSON, got \(String(describing: error))")
      return
    }
    #expect(type == .json)
    #expect(!reason.isEmpty)
    #expect(error?.description.hasPrefix("the public.json data is not JSON: ") == true)
  }

  @Test(arguments: ["", ".name", "name.", "a..b", "."])
  func malformedPathsAreRefused(path: String) {
    #expect(throws: JSONFieldError.invalidPath(path)) {
      try JSONFieldConverter(from: .json, to: .utf8PlainText, fieldPath: path)
    }
  }

  @Test func filePayloadIsRead() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let path = try scratch.write(#"{"name": "from a file"}"#, to: "profile.json")
    let converter = try JSONFieldConverter(from: .json, to: .utf8PlainText, fieldPath: "name")
    let payload = try await converter.convert(
      .file(URL(fileURLWithPath: path)), from: .json, to: .utf8PlainText)
    #expect(utf8Text(try payload.data()) == "from a file")
  }

  @Test func readsTypesConformingToItsSource() throws {
    let converter = try JSONFieldConverter(from: .json, to: .utf8PlainText, fieldPath: "name")
    #expect(converter.outputs(from: .json) == [.utf8PlainText])
    let subtype = UTType(exportedAs: freshExampleIdentifier(), conformingTo: .json)
    #expect(converter.outputs(from: subtype) == [.utf8PlainText])
    #expect(converter.outputs(from: .utf8PlainText).isEmpty)
    #expect(converter.outputs(from: .png).isEmpty)
  }
}
