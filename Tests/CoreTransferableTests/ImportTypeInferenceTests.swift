import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

/// A note that imports JSON (declared first) or plain text: which representation a file
/// lands in when no content type is given.
private struct ImportedNote: Transferable, Equatable {
  var text: String
  var source: String

  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(importedContentType: .json) { data in
      let object = try JSONSerialization.jsonObject(with: data) as? [String: String]
      return ImportedNote(text: object?["text"] ?? "", source: "json")
    }
    DataRepresentation(importedContentType: .plainText) { data in
      ImportedNote(text: String(decoding: data, as: UTF8.self), source: "text")
    }
    DataRepresentation(importedContentType: .png) { _ in ImportedNote(text: "", source: "png") }
  }
}

/// Apple: with no content type, the type is inferred from the file's extension or contents
/// first; only an unknown one makes the framework try the representations in order.
@Suite struct ImportTypeInferenceTests {
  @Test func aTextFileLandsInTheTextRepresentationThoughJSONIsDeclaredFirst() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let file = try scratch.file("note.txt", contents: Data("{\"text\": \"not JSON's\"}".utf8))
    let note = try await ImportedNote(importing: file, contentType: nil)
    #expect(note == ImportedNote(text: "{\"text\": \"not JSON's\"}", source: "text"))
    // The same bytes named .json go to the JSON representation.
    let json = try scratch.file("note.json", contents: Data("{\"text\": \"hi\"}".utf8))
    #expect(
      try await ImportedNote(importing: json, contentType: nil)
        == ImportedNote(text: "hi", source: "json"))
  }

  @Test func withoutAKnownExtensionTheContentsSayWhatItIs() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let png = try scratch.file(
      "picture", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 64))
    #expect(try await ImportedNote(importing: png, contentType: nil).source == "png")
  }

  @Test func anUnknownTypeFallsBackToTheRepresentationsInOrder() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    // Neither the extension nor the bytes say anything: JSON, declared first, takes it.
    let unknown = try scratch.file("note.zzq", contents: Data("{\"text\": \"first\"}".utf8))
    #expect(
      try await ImportedNote(importing: unknown, contentType: nil)
        == ImportedNote(text: "first", source: "json"))
    // A known type no representation imports (a JPEG name) is no better than unknown.
    let misnamed = try scratch.file("note.jpg", contents: Data("plain words".utf8))
    #expect(try await ImportedNote(importing: misnamed, contentType: nil).source == "text")
  }
}
