import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

extension UTType {
  static let contact = UTType(exportedAs: "com.example.transfer-tests.contact", conformingTo: .json)
}

struct Contact: Codable, Equatable {
  var name: String
  var phone: String
}

/// A composite representation: a named list of others, reused through `body`.
struct ContactRepresentation: TransferRepresentation {
  typealias Item = Contact

  var body: some TransferRepresentation<Contact> {
    CodableRepresentation(contentType: .contact)
    DataRepresentation(exportedContentType: .vCard) { contact in
      Data("BEGIN:VCARD\nFN:\(contact.name)\nTEL:\(contact.phone)\nEND:VCARD\n".utf8)
    }
  }
}

/// A composite made of another composite, with modifiers on both levels.
struct SharedContactRepresentation: TransferRepresentation {
  typealias Item = Contact

  var body: some TransferRepresentation<Contact> {
    ContactRepresentation().suggestedFileName { "\($0.name).contact" }
    ProxyRepresentation(exporting: \.name)
  }
}

extension Contact: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    SharedContactRepresentation()
      .exportingCondition { !$0.name.isEmpty }
  }
}

/// Switches set before the type's representations are read; `if` in the builder reads them.
enum BuilderSwitches {
  nonisolated(unsafe) static var prefersTSV = false
  nonisolated(unsafe) static var offersJSON = true
}

/// `if`/`else` and `if` without `else` in the builder.
struct Table: Transferable {
  var rows: [[String]]

  static var transferRepresentation: some TransferRepresentation {
    if BuilderSwitches.offersJSON {
      DataRepresentation(exportedContentType: .json) { table in
        try JSONEncoder().encode(table.rows)
      }
    }
    if BuilderSwitches.prefersTSV {
      DataRepresentation(exportedContentType: .tabSeparatedText) { table in
        Data(table.rows.map { $0.joined(separator: "\t") }.joined(separator: "\n").utf8)
      }
    } else {
      DataRepresentation(exportedContentType: .commaSeparatedText) { table in
        Data(table.rows.map { $0.joined(separator: ",") }.joined(separator: "\n").utf8)
      }
    }
  }
}

/// More representations than Apple's ten-child builder accepts.
struct Wide: Transferable {
  static let types: [UTType] = [
    .png, .jpeg, .gif, .tiff, .bmp, .heic, .webP, .pdf, .rtf, .html, .xml, .json,
  ]

  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(exportedContentType: .png) { _ in Data([0]) }
    DataRepresentation(exportedContentType: .jpeg) { _ in Data([1]) }
    DataRepresentation(exportedContentType: .gif) { _ in Data([2]) }
    DataRepresentation(exportedContentType: .tiff) { _ in Data([3]) }
    DataRepresentation(exportedContentType: .bmp) { _ in Data([4]) }
    DataRepresentation(exportedContentType: .heic) { _ in Data([5]) }
    DataRepresentation(exportedContentType: .webP) { _ in Data([6]) }
    DataRepresentation(exportedContentType: .pdf) { _ in Data([7]) }
    DataRepresentation(exportedContentType: .rtf) { _ in Data([8]) }
    DataRepresentation(exportedContentType: .html) { _ in Data([9]) }
    DataRepresentation(exportedContentType: .xml) { _ in Data([10]) }
    DataRepresentation(exportedContentType: .json) { _ in Data([11]) }
  }
}

@Suite("Result builder", .serialized)
struct BuilderTests {
  let contact = Contact(name: "Mei", phone: "555-0100")

  @Test func compositeBodyFlattensInOrder() async throws {
    #expect(Contact.exportedContentTypes() == [.contact, .vCard, .utf8PlainText, .plainText])
    #expect(Contact.importedContentTypes() == [.contact])
    #expect(text(try await contact.exported(as: .vCard)).contains("FN:Mei"))
    #expect(
      try await Contact(importing: try await contact.exported(as: .contact), contentType: .contact)
        == contact)
    #expect(try await contact.transferred(as: String.self) == "Mei")
  }

  @Test func modifiersOnCompositesReachEveryChild() {
    #expect(
      contact.transferExports().map(\.suggestedFileName) == [
        "Mei.contact", "Mei.contact", nil, nil,
      ])
    #expect(Contact(name: "", phone: "1").exportedContentTypes() == [])
  }

  @Test func ifElseAndOptionalBranches() async throws {
    let table = Table(rows: [["a", "b"], ["c", "d"]])
    BuilderSwitches.prefersTSV = false
    BuilderSwitches.offersJSON = true
    #expect(Table.exportedContentTypes() == [.json, .commaSeparatedText])
    #expect(text(try await table.exported(as: .plainText)) == "a,b\nc,d")

    BuilderSwitches.prefersTSV = true
    BuilderSwitches.offersJSON = false
    defer {
      BuilderSwitches.prefersTSV = false
      BuilderSwitches.offersJSON = true
    }
    #expect(Table.exportedContentTypes() == [.tabSeparatedText])
    #expect(text(try await table.exported(as: .plainText)) == "a\tb\nc\td")
  }

  @Test func moreThanTenRepresentations() async throws {
    #expect(Wide.exportedContentTypes() == Wide.types)
    #expect(try await Wide().exported(as: .json) == Data([11]))
  }

  @Test func neverHasNoRepresentations() {
    #expect(Never.exportedContentTypes() == [])
    #expect(Never.importedContentTypes() == [])
  }
}
