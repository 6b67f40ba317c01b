import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

extension UTType {
  static let noteJSON = UTType(exportedAs: "com.example.transfer-tests.note", conformingTo: .json)
  static let notePlist = UTType(
    exportedAs: "com.example.transfer-tests.note-plist", conformingTo: .propertyList)
}

/// Travels as JSON (the default coders), then as a binary property list (explicit coders).
struct Note: Codable, Equatable, Transferable {
  var title: String
  var pinned: Bool

  static var transferRepresentation: some TransferRepresentation {
    CodableRepresentation(for: Note.self, contentType: .noteJSON)
    CodableRepresentation(
      contentType: .notePlist, encoder: binaryPlist, decoder: PropertyListDecoder())
  }

  static var binaryPlist: PropertyListEncoder {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    return encoder
  }
}

@Suite("CodableRepresentation")
struct CodableRepresentationTests {
  let note = Note(title: "Groceries", pinned: true)

  @Test func exportsJSONByDefault() async throws {
    let json = try await note.exported(as: .noteJSON)
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect(object["title"] as? String == "Groceries")
    #expect(object["pinned"] as? Bool == true)
  }

  @Test func importsJSON() async throws {
    let json = Data(#"{"title":"Bills","pinned":false}"#.utf8)
    #expect(
      try await Note(importing: json, contentType: .noteJSON) == Note(title: "Bills", pinned: false)
    )
  }

  @Test func usesTheGivenEncoderAndDecoder() async throws {
    let plist = try await note.exported(as: .notePlist)
    #expect(plist.starts(with: Data("bplist00".utf8)))
    #expect(try PropertyListDecoder().decode(Note.self, from: plist) == note)
    #expect(try await Note(importing: plist, contentType: .notePlist) == note)
  }

  @Test func malformedDocumentFailsTheImportWithTheDecodingError() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Note(importing: Data(#"{"title":1}"#.utf8), contentType: .noteJSON)
    }
    #expect(error?.code == .importFailed)
    #expect(error?.underlyingError is DecodingError)
    #expect(error?.typeName == "Note")
    #expect(error?.contentType == .noteJSON)
  }

  @Test func concurrentExportsShareTheCodersSafely() async throws {
    let notes = (0..<64).map { Note(title: "note \($0)", pinned: $0.isMultiple(of: 2)) }
    let decoded = try await withThrowingTaskGroup(of: Note.self) { group in
      for note in notes {
        group.addTask {
          let plist = try await note.exported(as: .notePlist)
          return try PropertyListDecoder().decode(Note.self, from: plist)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(decoded.map(\.title)) == Set(notes.map(\.title)))
  }
}
