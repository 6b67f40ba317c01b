import Foundation
import Testing

@testable import UniformTypeIdentifiers

@Suite("Declaration precedence")
struct DeclarationPrecedenceTests {
  /// An imported declaration (plain text, `ftimp`) and an exported one (image, `ftexp`) of the
  /// same identifier, in two files.
  func writeRivals(_ identifier: String, in directory: String) throws -> (
    imported: String, exported: String
  ) {
    let imported = try write(
      try declarationJSON(imported: [
        entry(
          identifier, conformsTo: ["public.plain-text"], extensions: ["ftimp-\(identifier)"],
          description: "imported")
      ]), to: "imported/decl.json", in: directory)
    let exported = try write(
      try declarationJSON(exported: [
        entry(
          identifier, conformsTo: ["public.image"], extensions: ["ftexp-\(identifier)"],
          description: "exported")
      ]), to: "exported/decl.json", in: directory)
    return (imported, exported)
  }

  func expectExportedWins(_ identifier: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let type = try #require(UTType(identifier), sourceLocation: sourceLocation)
    #expect(type.conforms(to: .image), sourceLocation: sourceLocation)
    #expect(!type.conforms(to: .text), sourceLocation: sourceLocation)
    #expect(type.localizedDescription == "exported", sourceLocation: sourceLocation)
    #expect(
      type.preferredFilenameExtension == "ftexp-\(identifier)", sourceLocation: sourceLocation)
    #expect(
      UTType(filenameExtension: "ftexp-\(identifier)") == type, sourceLocation: sourceLocation)
    #expect(
      UTType(filenameExtension: "ftimp-\(identifier)")?.isDynamic == true,
      sourceLocation: sourceLocation)
  }

  @Test func exportedWinsWhenImportedLoadsFirst() throws {
    try withTemporaryDirectory { directory in
      let identifier = "org.ferrytests.precedence.imported-first"
      let files = try writeRivals(identifier, in: directory)
      #expect(UTType.loadDeclarations(from: files.imported).isEmpty)
      #expect(UTType(identifier)?.localizedDescription == "imported")
      #expect(UTType(identifier)?.conforms(to: .text) == true)
      #expect(UTType.loadDeclarations(from: files.exported).isEmpty)
      try expectExportedWins(identifier)
    }
  }

  @Test func exportedWinsWhenExportedLoadsFirst() throws {
    try withTemporaryDirectory { directory in
      let identifier = "org.ferrytests.precedence.exported-first"
      let files = try writeRivals(identifier, in: directory)
      #expect(UTType.loadDeclarations(from: files.exported).isEmpty)
      #expect(UTType.loadDeclarations(from: files.imported).isEmpty)
      try expectExportedWins(identifier)
    }
  }

  @Test(arguments: [false, true])
  func exportedWinsAcrossSearchPathDirectories(importedDirectoryFirst: Bool) throws {
    try withTemporaryDirectory { directory in
      let identifier = "org.ferrytests.precedence.search-path"
      _ = try writeRivals(identifier, in: directory)
      let directories = [directory + "/imported", directory + "/exported"]
      let registry = privateRegistry(
        declarationDirectories: importedDirectoryFirst ? directories : directories.reversed())
      let record = try #require(registry.record(identifier))
      #expect(record.layer == .exportedFile)
      #expect(record.description == "exported")
      #expect(registry.conforms(record.key, to: "public.image"))
      #expect(!registry.conforms(record.key, to: "public.text"))
      #expect(registry.preferredIdentifier("ftexp-\(identifier)", .filenameExtension) == identifier)
      #expect(registry.preferredIdentifier("ftimp-\(identifier)", .filenameExtension) == nil)
      #expect(registry.diagnostics.isEmpty)
    }
  }

  @Test func earlierSearchPathDirectoryWinsWithinALayer() throws {
    try withTemporaryDirectory { directory in
      for name in ["first", "second"] {
        try write(
          try declarationJSON(imported: [
            entry("org.ferrytests.precedence.same-layer", description: name)
          ]),
          to: "\(name)/decl.json", in: directory)
      }
      let registry = privateRegistry(
        declarationDirectories: [directory + "/second", directory + "/first"])
      #expect(registry.record("org.ferrytests.precedence.same-layer")?.description == "second")
    }
  }

  @Test func importedTypeFollowsALaterExportedDeclaration() throws {
    try withTemporaryDirectory { directory in
      let identifier = "org.ferrytests.precedence.imported-as"
      let imported = UTType(importedAs: identifier, conformingTo: .plainText)
      #expect(imported.identifier == identifier)
      #expect(imported.isDeclared)
      #expect(imported.conforms(to: .text))
      #expect(imported.preferredFilenameExtension == nil)
      #expect(imported._declarationSource == "imported in code")

      let path = try write(
        try declarationJSON(exported: [
          entry(
            identifier, conformsTo: ["public.image"], extensions: ["ftlate"],
            mimeTypes: ["image/x-ferrytests-late"])
        ]), to: "late.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)

      // The value made before the load answers from the exported declaration now.
      #expect(imported.conforms(to: .image))
      #expect(!imported.conforms(to: .text))
      #expect(imported.preferredFilenameExtension == "ftlate")
      #expect(imported.preferredMIMEType == "image/x-ferrytests-late")
      #expect(UTType(filenameExtension: "ftlate") == imported)
      #expect(imported._declarationSource == "exported declaration file")
      // Asking again keeps the exported declaration.
      let again = UTType(importedAs: identifier, conformingTo: .plainText)
      #expect(again == imported)
      #expect(again.conforms(to: .image))
    }
  }

  @Test func codeDeclarations() throws {
    let exported = UTType(
      exportedAs: "org.ferrytests.precedence.code-exported", conformingTo: .json)
    #expect(exported.isDeclared)
    #expect(exported.conforms(to: .text))
    #expect(exported._declarationSource == "exported in code")
    let defaulted = UTType(exportedAs: "org.ferrytests.precedence.code-default")
    #expect(defaulted.conforms(to: .data))
    #expect(defaulted._parents == [.data])
    // Exported beats imported, whichever comes first.
    let imported = UTType(
      importedAs: "org.ferrytests.precedence.code-exported", conformingTo: .image)
    #expect(imported == exported)
    #expect(!imported.conforms(to: .image))
    _ = UTType(importedAs: "org.ferrytests.precedence.code-both", conformingTo: .image)
    let both = UTType(exportedAs: "org.ferrytests.precedence.code-both", conformingTo: .audio)
    #expect(both.conforms(to: .audio) && !both.conforms(to: .image))
  }

  @Test func codeMayUseTheExampleNamespaceButNotSystemOnes() throws {
    // Apple's own sample code exports `com.example` types.
    let example = UTType(exportedAs: "com.example.ferrytests.profile", conformingTo: .json)
    #expect(example.isDeclared)
    #expect(example.conforms(to: .json))
    #expect(UTType("com.example.ferrytests.profile") == example)
    for reserved in ["public.ferrytests-code", "com.apple.ferrytests-code", "dyn.ferrytests"] {
      let type = UTType(exportedAs: reserved)
      #expect(!type.isDeclared, "\(reserved)")
      #expect(UTType(reserved) == nil, "\(reserved)")
    }
    // A system type stays what the system declares.
    let png = UTType(exportedAs: "public.png", conformingTo: .audio)
    #expect(png == .png)
    #expect(!png.conforms(to: .audio))
  }

  /// Identifiers resolve to the lowest layer that declares them: exported file, imported
  /// file, exported code, imported code. Code stands in for the Info.plist declaration that
  /// Apple's `UTType(exportedAs:)` finds, so any file beats it.
  @Test func identifierLayersInOrder() throws {
    try withTemporaryDirectory { directory in
      let identifier = "org.ferrytests.precedence.layers"
      let registry = privateRegistry()
      func layer() -> DeclarationLayer? { registry.record(identifier)?.layer }

      registry.declareInCode(identifier: identifier, parent: "public.plain-text", exported: false)
      #expect(layer() == .importedCode)
      #expect(registry.conforms(identifier, to: "public.text"))

      registry.declareInCode(identifier: identifier, parent: "public.audio", exported: true)
      #expect(layer() == .exportedCode)
      #expect(registry.conforms(identifier, to: "public.audio"))

      let imported = try write(
        try declarationJSON(imported: [entry(identifier, conformsTo: ["public.image"])]),
        to: "imported.json", in: directory)
      #expect(registry.loadDeclarations(from: imported, allowingExampleNamespace: false).isEmpty)
      #expect(layer() == .importedFile)
      #expect(registry.conforms(identifier, to: "public.image"))
      #expect(!registry.conforms(identifier, to: "public.audio"))

      let exported = try write(
        try declarationJSON(exported: [entry(identifier, conformsTo: ["public.movie"])]),
        to: "exported.json", in: directory)
      #expect(registry.loadDeclarations(from: exported, allowingExampleNamespace: false).isEmpty)
      #expect(layer() == .exportedFile)
      #expect(registry.conforms(identifier, to: "public.movie"))
      #expect(!registry.conforms(identifier, to: "public.image"))
    }
  }

  /// Apple's `UTType(exportedAs:)` takes tags and a description from a declaration, never from
  /// code; here any declaration file of the identifier gives them, loaded before or after.
  @Test(arguments: [false, true])
  func typeDeclaredInCodeTakesTagsFromAFile(fileFirst: Bool) throws {
    try withTemporaryDirectory { directory in
      let identifier = "org.ferrytests.precedence.code-tags-\(fileFirst)"
      let path = try write(
        try declarationJSON(imported: [
          entry(
            identifier, conformsTo: ["public.json"], extensions: ["ftcodetags\(fileFirst)"],
            mimeTypes: ["application/x-ferrytests-code-tags-\(fileFirst)"], description: "Tagged")
        ]), to: "tags.json", in: directory)
      if fileFirst { #expect(UTType.loadDeclarations(from: path).isEmpty) }
      let type = UTType(exportedAs: identifier, conformingTo: .data)
      if !fileFirst { #expect(UTType.loadDeclarations(from: path).isEmpty) }
      #expect(type.preferredFilenameExtension == "ftcodetags\(fileFirst)")
      #expect(type.preferredMIMEType == "application/x-ferrytests-code-tags-\(fileFirst)")
      #expect(type.localizedDescription == "Tagged")
      #expect(type.conforms(to: .json))
      #expect(UTType(filenameExtension: "ftcodetags\(fileFirst)") == type)
      #expect(type._declarationSource == "imported declaration file")
    }
  }

  /// Tags: system, exported files, imported files, then the MIME database.
  @Test func tagLayersInOrder() throws {
    try withTemporaryDirectory { directory in
      let mime = directory + "/mime"
      try write("application/x-ferrytests-tag\n", to: "types", in: mime)
      try write(
        "50:application/x-ferrytests-tag:*.fttag\n50:application/x-ferrytests-tag:*.png\n",
        to: "globs2", in: mime)
      let registry = privateRegistry(mimeDirectories: [mime])
      let fromDatabase = "org.freedesktop.mime.application.x-ferrytests-tag"
      #expect(registry.preferredIdentifier("fttag", .filenameExtension) == fromDatabase)

      let imported = try write(
        try declarationJSON(imported: [
          entry("org.ferrytests.tags.imported", extensions: ["fttag", "png"])
        ]),
        to: "imported.json", in: directory)
      #expect(registry.loadDeclarations(from: imported, allowingExampleNamespace: false).isEmpty)
      #expect(
        registry.preferredIdentifier("fttag", .filenameExtension) == "org.ferrytests.tags.imported")

      let exported = try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.tags.exported", extensions: ["fttag", "png"])
        ]),
        to: "exported.json", in: directory)
      #expect(registry.loadDeclarations(from: exported, allowingExampleNamespace: false).isEmpty)
      #expect(
        registry.preferredIdentifier("fttag", .filenameExtension) == "org.ferrytests.tags.exported")
      #expect(
        registry.allRecords(tag: "fttag", tagClass: .filenameExtension, conformingTo: nil).map(
          \.identifier)
          == ["org.ferrytests.tags.exported", "org.ferrytests.tags.imported", fromDatabase])
      // No declaration takes a system type's tag.
      #expect(registry.preferredIdentifier("png", .filenameExtension) == "public.png")
      #expect(
        registry.allRecords(tag: "png", tagClass: .filenameExtension, conformingTo: nil).map(
          \.identifier)
          == [
            "public.png", "org.ferrytests.tags.exported", "org.ferrytests.tags.imported",
            fromDatabase,
          ])
    }
  }

  /// Within a layer: preferred tag, then the more specific type, then declaration order.
  @Test func tagOrderWithinALayer() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.within.secondary", extensions: ["ftother", "ftwithin"]),
          entry(
            "org.ferrytests.within.general", conformsTo: ["public.data"], extensions: ["ftwithin"]),
          entry(
            "org.ferrytests.within.specific", conformsTo: ["public.plain-text"],
            extensions: ["ftwithin"]),
          entry("org.ferrytests.within.first", extensions: ["fttie"]),
          entry("org.ferrytests.within.second", extensions: ["fttie"]),
        ]), to: "within.json", in: directory)
      let registry = privateRegistry()
      #expect(registry.loadDeclarations(from: path, allowingExampleNamespace: false).isEmpty)
      #expect(
        registry.allRecords(tag: "ftwithin", tagClass: .filenameExtension, conformingTo: nil).map(
          \.identifier)
          == [
            "org.ferrytests.within.specific", "org.ferrytests.within.general",
            "org.ferrytests.within.secondary",
          ])
      #expect(
        registry.allRecords(tag: "fttie", tagClass: .filenameExtension, conformingTo: nil).map(
          \.identifier)
          == ["org.ferrytests.within.first", "org.ferrytests.within.second"])
      #expect(
        registry.preferredIdentifier("ftwithin", .filenameExtension, conformingTo: "public.image")
          == nil)
    }
  }

  @Test func searchPathRefusesTheExampleNamespace() throws {
    try withTemporaryDirectory { directory in
      try write(
        try declarationJSON(exported: [
          entry("com.example.ferrytests.searched"), entry("org.ferrytests.example.searched"),
        ]), to: "types/example.json", in: directory)
      let registry = privateRegistry(declarationDirectories: [directory + "/types"])
      #expect(registry.record("com.example.ferrytests.searched") == nil)
      #expect(registry.record("org.ferrytests.example.searched") != nil)
      let diagnostics = registry.diagnostics
      #expect(diagnostics.count == 1)
      #expect(
        diagnostics.first?.problem
          == .reservedNamespace(
            identifier: "com.example.ferrytests.searched", namespace: "com.example"))
    }
  }

  @Test func explicitLoadsAcceptTheExampleNamespaceOnlyWhenAsked() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        try declarationJSON(exported: [
          entry("com.example.ferrytests.explicit", extensions: ["ftexample"])
        ]),
        to: "example.json", in: directory)
      let refused = privateRegistry()
      let problems = refused.loadDeclarations(from: path, allowingExampleNamespace: false)
      #expect(
        problems.map(\.problem)
          == [
            .reservedNamespace(
              identifier: "com.example.ferrytests.explicit", namespace: "com.example")
          ])
      #expect(refused.record("com.example.ferrytests.explicit") == nil)

      let accepted = privateRegistry()
      #expect(accepted.loadDeclarations(from: path, allowingExampleNamespace: true).isEmpty)
      #expect(accepted.record("com.example.ferrytests.explicit") != nil)
      #expect(
        accepted.preferredIdentifier("ftexample", .filenameExtension)
          == "com.example.ferrytests.explicit")

      #expect(UTType.loadDeclarations(from: path, allowingExampleNamespace: true).isEmpty)
      #expect(UTType("com.example.ferrytests.explicit")?.preferredFilenameExtension == "ftexample")
    }
  }
}
