import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// A directory of declaration files registers as its files would, one after the other in the
/// byte order of their names.
@Suite(.timeLimit(.minutes(1))) struct ConverterDeclarationDirectoryTests {
  @Test func everyFileRegistersInNameOrderAndABrokenOneIsReportedAndSkipped() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    // 10-types.json declares the type only; 20-conversions.json converts it; 30-broken.json
    // is not JSON; notes.txt is not a declaration file.
    _ = try scratch.declarations(exportedJSONType(identifier), name: "10-types.json")
    _ = try scratch.declarations(
      [
        "FerryConversions": [
          ["from": identifier, "to": "public.utf8-plain-text", "jsonField": "name"]
        ]
      ],
      name: "20-conversions.json")
    try scratch.write("{ not json", to: "30-broken.json")
    try scratch.write("anything", to: "notes.txt")
    let registry = ConverterRegistry()
    let problems = try registry.registerDeclarations(
      from: scratch.directory.path, allowingExampleNamespace: true)
    #expect(problems.count == 1 && problems[0].file.hasSuffix("30-broken.json"), "\(problems)")
    let card = try #require(UTType(identifier), "the types of 10-types.json are declared")
    let board = declarationPasteboard(registry, holding: Data(#"{"name": "ada"}"#.utf8), as: card)
    #expect(
      utf8Text(try await board.data(for: .utf8PlainText)) == "ada", "20-conversions.json uses them")
  }

  @Test func aFileStillNeedsItsConversionsAndNamesOrderBytewise() throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let path = try scratch.declarations(
      exportedJSONType(freshExampleIdentifier()), name: "only-types.json")
    #expect(throws: PasteboardError.self) {
      try ConverterRegistry().registerDeclarations(from: path, allowingExampleNamespace: true)
    }
    for name in ["b.json", "B.json", "a.plist", "_.json", "a.json"] {
      try scratch.write("{}", to: name)
    }
    #expect(
      ConverterRegistry.declarationFiles(inDirectory: scratch.directory.path)
        == ["B.json", "_.json", "a.json", "a.plist", "b.json", "only-types.json"])
    #expect(ConverterRegistry.declarationFiles(inDirectory: path) == nil)
  }
}
