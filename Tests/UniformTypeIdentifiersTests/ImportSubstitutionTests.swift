import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// `UTType(importedAs:)` answers the type that owns the imported type's preferred filename
/// extension when that is another type, as Apple documents.
@Suite("Imported type substitution")
struct ImportSubstitutionTests {
  @Test func anExportedOwnerOfThePreferredExtensionIsSubstituted() throws {
    try withTemporaryDirectory { directory in
      let owner = "org.ferrytests.substitute.owner"
      let guest = "org.ferrytests.substitute.guest"
      let path = try write(
        try declarationJSON(
          exported: [entry(owner, conformsTo: ["public.json"], extensions: ["ftsubst"])],
          imported: [entry(guest, conformsTo: ["public.data"], extensions: ["ftsubst", "ftguest"])]),
        to: "substitute.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      #expect(UTType(guest)?.identifier == guest)
      #expect(UTType(importedAs: guest).identifier == owner)
      #expect(UTType(importedAs: guest, conformingTo: .json).identifier == owner)
      // A substitute must conform to the parent asked for; the owner is no image.
      #expect(UTType(importedAs: guest, conformingTo: .image).identifier == guest)
    }
  }

  @Test func aSystemOwnerIsSubstituted() throws {
    try withTemporaryDirectory { directory in
      let guest = "org.ferrytests.substitute.json-like"
      let path = try write(
        try declarationJSON(imported: [entry(guest, extensions: ["json"])]),
        to: "json-like.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      #expect(UTType(importedAs: guest) == .json)
    }
  }

  @Test func aTypeOwningItsPreferredExtensionKeepsItsIdentifier() throws {
    try withTemporaryDirectory { directory in
      let alone = "org.ferrytests.substitute.alone"
      let path = try write(
        try declarationJSON(imported: [entry(alone, extensions: ["ftalone"])]),
        to: "alone.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      #expect(UTType(importedAs: alone).identifier == alone)
      // Declared only in code: no extension, nothing to substitute.
      let code = UTType(importedAs: "org.ferrytests.substitute.code-only", conformingTo: .text)
      #expect(code.identifier == "org.ferrytests.substitute.code-only")
      // System types are never substituted, though `plist` prefers the XML property list.
      #expect(UTType(importedAs: "com.apple.property-list") == .propertyList)
    }
  }

  @Test func theAnswerFollowsDeclarationsLoadedLater() throws {
    try withTemporaryDirectory { directory in
      let guest = "org.ferrytests.substitute.late-guest"
      let owner = "org.ferrytests.substitute.late-owner"
      let imported = try write(
        try declarationJSON(imported: [entry(guest, extensions: ["ftlateowner"])]),
        to: "guest.json", in: directory)
      #expect(UTType.loadDeclarations(from: imported).isEmpty)
      #expect(UTType(importedAs: guest).identifier == guest)
      let exported = try write(
        try declarationJSON(exported: [entry(owner, extensions: ["ftlateowner"])]),
        to: "owner.json", in: directory)
      #expect(UTType.loadDeclarations(from: exported).isEmpty)
      #expect(UTType(importedAs: guest).identifier == owner)
    }
  }
}
