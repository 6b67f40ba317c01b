import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// `UTType(importedAs:)` answers the type that owns the imported type's preferred filename
/// extension when that is another type, as Apple documents.
@Suite("Imported type substitution")
struct ImportSubstitutionTests {
  /// Writes a declaration file and loads it into the shared registry, expecting no problem.
  func loadShared(_ json: String, as name: String, in directory: String) throws {
    let path = try write(json, to: name, in: directory)
    #expect(UTType.loadDeclarations(from: path).isEmpty)
  }

  @Test func anExportedOwnerOfThePreferredExtensionIsSubstituted() throws {
    try withTemporaryDirectory { directory in
      let owner = "org.ferrytests.substitute.owner"
      let guest = "org.ferrytests.substitute.guest"
      try loadShared(
        try declarationJSON(
          exported: [entry(owner, conformsTo: ["public.json"], extensions: ["ftsubst"])],
          imported: [entry(guest, conformsTo: ["public.data"], extensions: ["ftsubst", "ftguest"])]),
        as: "substitute.json", in: directory)
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
      try loadShared(
        try declarationJSON(imported: [entry(guest, extensions: ["json"])]),
        as: "json-like.json", in: directory)
      #expect(UTType(importedAs: guest) == .json)
    }
  }

  @Test func aTypeOwningItsPreferredExtensionKeepsItsIdentifier() throws {
    try withTemporaryDirectory { directory in
      let alone = "org.ferrytests.substitute.alone"
      try loadShared(
        try declarationJSON(imported: [entry(alone, extensions: ["ftalone"])]),
        as: "alone.json", in: directory)
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
      try loadShared(
        try declarationJSON(imported: [entry(guest, extensions: ["ftlateowner"])]),
        as: "guest.json", in: directory)
      #expect(UTType(importedAs: guest).identifier == guest)
      try loadShared(
        try declarationJSON(exported: [entry(owner, extensions: ["ftlateowner"])]),
        as: "owner.json", in: directory)
      #expect(UTType(importedAs: guest).identifier == owner)
    }
  }
}

/// `UTType(identifier:allowUndeclared:)`, from Apple's iOS and macOS 27 SDKs.
@Suite("Undeclared identifiers")
struct UndeclaredIdentifierTests {
  @Test func undeclaredIdentifiersOnlyWhenAllowed() throws {
    let identifier = "org.ferrytests.undeclared.kept"
    #expect(UTType(identifier: identifier, allowUndeclared: false) == nil)
    let kept = try #require(UTType(identifier: identifier, allowUndeclared: true))
    #expect(kept.identifier == identifier)
    #expect(!kept.isDeclared && !kept.isDynamic)
    #expect(!kept.conforms(to: .data))
    #expect(UTType(identifier: "not an identifier", allowUndeclared: true) == nil)
    #expect(UTType(identifier: "PUBLIC.PNG", allowUndeclared: false) == .png)
    // The value follows a later declaration.
    _ = UTType(exportedAs: identifier, conformingTo: .json)
    #expect(kept.isDeclared && kept.conforms(to: .json))
  }
}
