import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// The shared-mime-info bridge on a small database written by the test, where every answer is
/// known in advance.
@Suite("MIME database bridge (test database)")
struct MIMEDatabaseFixtureTests {
  /// Writes a compiled database (the files `update-mime-database` produces) under `directory`.
  static func writeDatabase(in directory: String) throws -> String {
    let mime = directory + "/mime"
    try write(
      """
      text/plain
      image/png
      application/x-ferrytests-base
      application/x-ferrytests-child
      application/x-ferrytests+weird
      application/x-ferrytests-weird
      text/x-ferrytests-notes
      text/x-ferrytests-plain
      application/x-ferrytests-light
      application/x-ferrytests-heavy
      Application/X-FerryTests-Upper

      """, to: "types", in: mime)
    try write(
      """
      application/x-ferrytests-old application/x-ferrytests-child
      image/x-ferrytests-png image/png

      """, to: "aliases", in: mime)
    try write(
      """
      application/x-ferrytests-child application/x-ferrytests-base
      text/x-ferrytests-notes text/plain

      """, to: "subclasses", in: mime)
    try write(
      """
      # comment line
      50:text/plain:*.txt
      50:image/png:*.png
      50:image/png:*.ferrytestspng
      50:application/x-ferrytests-child:*.ftchild
      60:application/x-ferrytests-child:*.ftc
      50:application/x-ferrytests-child:Makefile.ferrytests
      50:application/x-ferrytests-child:*.ft[ab]
      50:application/x-ferrytests-base:*.png
      50:application/x-ferrytests-light:*.ftweight
      80:application/x-ferrytests-heavy:*.ftweight
      50:application/x-ferrytests-light:*.FTCASE

      """, to: "globs2", in: mime)
    try write(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <mime-type xmlns="http://www.freedesktop.org/standards/shared-mime-info" type="application/x-ferrytests-child">
        <comment>Ferry test child</comment>
        <comment xml:lang="de">Ferry-Testkind</comment>
      </mime-type>

      """, to: "application/x-ferrytests-child.xml", in: mime)
    return mime
  }

  static let base = "org.freedesktop.mime.application.x-ferrytests-base"
  static let child = "org.freedesktop.mime.application.x-ferrytests-child"

  @Test func mimeOnlyTypesGetDerivedIdentifiers() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      #expect(registry.preferredIdentifier("application/x-ferrytests-base", .mimeType) == Self.base)
      #expect(
        registry.preferredIdentifier("application/x-ferrytests-child", .mimeType) == Self.child)
      let record = try #require(registry.record(Self.child))
      #expect(record.layer == .mimeDatabase)
      #expect(record.tags[.mimeType]?.first == "application/x-ferrytests-child")
      // Case in the database does not leak into identifiers or tags.
      #expect(
        registry.preferredIdentifier("application/x-ferrytests-upper", .mimeType)
          == "org.freedesktop.mime.application.x-ferrytests-upper")
    }
  }

  @Test func subclassBecomesConformance() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      let child = try #require(registry.record(Self.child))
      #expect(child.parentKeys.first == Self.base)
      #expect(registry.conforms(Self.child, to: Self.base))
      #expect(registry.conforms(Self.child, to: "public.data"))
      #expect(!registry.conforms(Self.base, to: Self.child))
    }
  }

  @Test func aliasesAndGlobsBecomeTags() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      let child = try #require(registry.record(Self.child))
      #expect(
        child.tags[.mimeType] == ["application/x-ferrytests-child", "application/x-ferrytests-old"])
      // Heavier globs first; globs that are not `*.ext` are not extensions.
      #expect(child.tags[.filenameExtension] == ["ftc", "ftchild"])
      #expect(registry.preferredIdentifier("application/x-ferrytests-old", .mimeType) == Self.child)
      #expect(registry.preferredIdentifier("FTCHILD", .filenameExtension) == Self.child)
      #expect(
        registry.preferredIdentifier("ftcase", .filenameExtension)
          == "org.freedesktop.mime.application.x-ferrytests-light")
    }
  }

  @Test func heavierGlobWins() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      #expect(
        registry.preferredIdentifier("ftweight", .filenameExtension)
          == "org.freedesktop.mime.application.x-ferrytests-heavy")
      let all = registry.allRecords(
        tag: "ftweight", tagClass: .filenameExtension, conformingTo: nil)
      #expect(
        all.map(\.identifier) == [
          "org.freedesktop.mime.application.x-ferrytests-heavy",
          "org.freedesktop.mime.application.x-ferrytests-light",
        ])
    }
  }

  @Test func textTypesConformToText() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      for mimeType in ["text/x-ferrytests-notes", "text/x-ferrytests-plain"] {
        let identifier = try #require(registry.preferredIdentifier(mimeType, .mimeType))
        #expect(identifier.hasPrefix("org.freedesktop.mime.text."))
        #expect(registry.conforms(identifier.lowercased(), to: "public.text"), "\(mimeType)")
        #expect(registry.conforms(identifier.lowercased(), to: "public.plain-text"), "\(mimeType)")
      }
    }
  }

  @Test func appleIdentifierWinsForItsMIMEType() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      #expect(registry.preferredIdentifier("image/png", .mimeType) == "public.png")
      #expect(registry.preferredIdentifier("image/x-ferrytests-png", .mimeType) == "public.png")
      #expect(registry.preferredIdentifier("ferrytestspng", .filenameExtension) == "public.png")
      #expect(registry.record("org.freedesktop.mime.image.png") == nil)
      // The system type keeps its own tags first and gains the database's after them.
      let tags = registry.tags(ofKey: "public.png", includingMIMEDatabase: true)
      #expect(tags[.filenameExtension] == ["png", "ferrytestspng"])
      #expect(tags[.mimeType] == ["image/png", "image/x-ferrytests-png"])
      // A database type claiming a system type's extension does not take it over.
      #expect(registry.preferredIdentifier("png", .filenameExtension) == "public.png")
      #expect(registry.preferredIdentifier("txt", .filenameExtension) == "public.plain-text")
    }
  }

  @Test func collidingDerivedIdentifiersStayDistinct() throws {
    try withTemporaryDirectory { directory in
      let mime = try Self.writeDatabase(in: directory)
      let database = SharedMIMEDatabase.load(directories: [mime])
      let plus = try #require(database.identifiers["application/x-ferrytests+weird"])
      let dash = try #require(database.identifiers["application/x-ferrytests-weird"])
      #expect(plus != dash)
      #expect(TypeIdentifier.isValid(plus) && TypeIdentifier.isValid(dash))
      let registry = privateRegistry(mimeDirectories: [mime])
      #expect(registry.preferredIdentifier("application/x-ferrytests+weird", .mimeType) == plus)
      #expect(registry.preferredIdentifier("application/x-ferrytests-weird", .mimeType) == dash)
    }
  }

  @Test(arguments: [
    ("application/x-doom-wad", "org.freedesktop.mime.application.x-doom-wad"),
    (
      "application/vnd.oasis.opendocument.text",
      "org.freedesktop.mime.application.vnd.oasis.opendocument.text"
    ),
    ("application/atom+xml", "org.freedesktop.mime.application.atom-xml"),
    ("image/svg+xml-compressed", "org.freedesktop.mime.image.svg-xml-compressed"),
    ("text/x-c++src", "org.freedesktop.mime.text.x-c--src"),
    ("application/x-ferry_tests", "org.freedesktop.mime.application.x-ferry-tests"),
    ("application/x-ferry..tests.", "org.freedesktop.mime.application.x-ferry.-tests"),
    // Found by `Scripts/fuzz mime-database` (docs/FUZZING.md): a doubled or leading slash
    // gave an empty component (`text..b`), an identifier UTType refuses.
    ("text//b", "org.freedesktop.mime.text.-b"),
    ("/x", "org.freedesktop.mime.-x"),
    ("text/./b", "org.freedesktop.mime.text.-.b"),
  ])
  func derivedIdentifierSpelling(_ mimeType: String, _ identifier: String) {
    let derived = SharedMIMEDatabase.derivedIdentifier(for: mimeType)
    #expect(derived == identifier)
    #expect(TypeIdentifier.isValid(derived))
  }

  @Test func systemLookupsNeverLoadTheDatabase() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      #expect(registry.record("public.png")?.identifier == "public.png")
      #expect(registry.preferredIdentifier("png", .filenameExtension) == "public.png")
      #expect(registry.preferredIdentifier("image/png", .mimeType) == "public.png")
      #expect(
        registry.preferredIdentifier("text/plain; charset=UTF-8", .mimeType)
          == "public.utf8-plain-text")
      #expect(
        registry.preferredIdentifier("mp4", .filenameExtension, conformingTo: "public.audio")
          == "public.mpeg-4-audio")
      #expect(registry.preferredIdentifier("UTF8_STRING", .x11Target) == "public.utf8-plain-text")
      #expect(registry.preferredIdentifier("STRING", .x11Target) == "org.x.string")
      #expect(
        registry.preferredIdentifier("text/uri-list", .x11Target) == "org.freedesktop.uri-list")
      #expect(registry.conforms("public.jpeg", to: "public.data"))
      #expect(registry.record("org.ferrytests.undeclared") == nil)
      #expect(registry.record(ReferenceDyn.encode("?0=6:1=turtle")) != nil)
      #expect(!registry.isMIMEDatabaseLoaded)
      // A tag nothing built in carries needs the database.
      #expect(registry.preferredIdentifier("ftchild", .filenameExtension) == Self.child)
      #expect(registry.isMIMEDatabaseLoaded)
    }
  }

  @Test func derivedIdentifierLoadsTheDatabase() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try Self.writeDatabase(in: directory)])
      #expect(!registry.isMIMEDatabaseLoaded)
      #expect(registry.record(Self.child)?.identifier == Self.child)
      #expect(registry.isMIMEDatabaseLoaded)
    }
  }

  @Test func commentsComeFromThePerTypeFile() throws {
    try withTemporaryDirectory { directory in
      let mime = try Self.writeDatabase(in: directory)
      let registry = privateRegistry(mimeDirectories: [mime])
      #expect(registry.commentSource(ofKey: Self.child) == "application/x-ferrytests-child")
      #expect(registry.commentSource(ofKey: "public.png") == "image/png")
      let german = MIMEComments(directories: [mime], languages: ["de_DE", "de"])
      let comment = german.comment(for: "application/x-ferrytests-child")
      #expect(comment.english == "Ferry test child")
      #expect(comment.localized == "Ferry-Testkind")
      let none = german.comment(for: "application/x-ferrytests-base")
      #expect(none.english == nil && none.localized == nil)
    }
  }

  /// A name that one package declares as a type of its own and another lists as an alias is
  /// the alias: its globs and parents go to the type the alias names (as LibreOffice's
  /// `application/vnd.ms-word` goes to `application/msword`); aliases of aliases, and aliases
  /// of such names, name the end of the chain; an alias that closes a cycle is dropped.
  @Test func aTypeThatIsAlsoAnAliasIsTheAlias() throws {
    try withTemporaryDirectory { directory in
      let mime = directory + "/mime"
      try write(
        """
        image/png
        image/x-ferrytests-png
        application/x-ferrytests-base
        application/x-ferrytests-child
        application/x-ferrytests-twin
        application/x-ferrytests-other

        """, to: "types", in: mime)
      try write(
        """
        image/x-ferrytests-png image/png
        application/x-ferrytests-twin application/x-ferrytests-child
        application/x-ferrytests-older application/x-ferrytests-twin
        application/x-ferrytests-loop-a application/x-ferrytests-loop-b
        application/x-ferrytests-loop-b application/x-ferrytests-loop-a

        """, to: "aliases", in: mime)
      try write(
        """
        application/x-ferrytests-twin application/x-ferrytests-base
        application/x-ferrytests-other application/x-ferrytests-twin

        """, to: "subclasses", in: mime)
      try write(
        """
        50:image/png:*.png
        50:image/x-ferrytests-png:*.ftpng
        50:application/x-ferrytests-child:*.ftchild
        50:application/x-ferrytests-twin:*.fttwin

        """, to: "globs2", in: mime)
      let registry = privateRegistry(mimeDirectories: [mime])
      let child = MIMEDatabaseFixtureTests.child
      let twin = "org.freedesktop.mime.application.x-ferrytests-twin"
      // Onto a system type: its glob becomes Apple's PNG's extension.
      #expect(registry.preferredIdentifier("image/x-ferrytests-png", .mimeType) == "public.png")
      #expect(registry.preferredIdentifier("ftpng", .filenameExtension) == "public.png")
      #expect(registry.record("org.freedesktop.mime.image.x-ferrytests-png") == nil)
      // Onto a database type: no type of its own, its tags and parents the other type's.
      #expect(registry.record(twin) == nil)
      for name in ["application/x-ferrytests-twin", "application/x-ferrytests-older"] {
        #expect(registry.preferredIdentifier(name, .mimeType) == child, "\(name)")
      }
      #expect(registry.preferredIdentifier("fttwin", .filenameExtension) == child)
      let record = try #require(registry.record(child))
      #expect(
        record.tags[.mimeType] == [
          "application/x-ferrytests-child", "application/x-ferrytests-twin",
          "application/x-ferrytests-older",
        ])
      #expect(registry.conforms(child, to: MIMEDatabaseFixtureTests.base))
      // A type whose parent was the folded name conforms to the type it folded into.
      #expect(
        registry.conforms("org.freedesktop.mime.application.x-ferrytests-other", to: child))
      let database = SharedMIMEDatabase.load(directories: [mime])
      #expect(database.identifiers["application/x-ferrytests-twin"] == child)
      // Neither name of the cycle is a type, and looking them up ends.
      #expect(registry.preferredIdentifier("application/x-ferrytests-loop-a", .mimeType) == nil)
      #expect(registry.preferredIdentifier("application/x-ferrytests-loop-b", .mimeType) == nil)
    }
  }

  @Test func missingDatabaseGivesNoTypes() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [directory + "/nothing-here"])
      #expect(registry.preferredIdentifier("wad", .filenameExtension) == nil)
      #expect(registry.isMIMEDatabaseLoaded)
      #expect(registry.preferredIdentifier("png", .filenameExtension) == "public.png")
    }
  }
}

/// The shared-mime-info bridge on this machine's database (`/usr/share/mime`).
@Suite(
  "MIME database bridge (system database)",
  .enabled(if: systemMIMEDirectory != nil, "no shared-mime-info database in /usr/share/mime"))
struct SystemMIMEDatabaseTests {
  let registry = privateRegistry(mimeDirectories: systemMIMEDirectory.map { [$0] } ?? [])
  let types = mimeDatabaseLines("types")

  /// A MIME type that only the database declares, with a name that needs no escaping.
  var mimeOnlyType: String? {
    let candidates = [
      "application/x-doom-wad", "application/x-gameboy-rom", "application/x-bittorrent",
      "application/x-blender", "application/x-gnumeric", "application/vnd.rar",
    ]
    return candidates.first {
      types.contains($0)
        && UTType.types(tag: $0, tagClass: .mimeType, conformingTo: nil).first?.identifier
          .hasPrefix("org.freedesktop.mime.") == true
    }
  }

  @Test func mimeOnlyTypeThroughThePublicAPI() throws {
    let mimeType = try #require(mimeOnlyType, "none of the candidate MIME types is in the database")
    let parts = mimeType.split(separator: "/")
    let identifier = "org.freedesktop.mime.\(parts[0]).\(parts[1])"
    let type = try #require(UTType(mimeType: mimeType))
    #expect(type.identifier == identifier)
    #expect(type.isDeclared)
    #expect(!type.isDynamic)
    #expect(!type.isPublic)
    #expect(type.preferredMIMEType == mimeType)
    #expect(type.conforms(to: .data))
    #expect(UTType(identifier) == type)
    #expect(UTType(identifier.uppercased()) == type)
    if localeIsEnglish, let directory = systemMIMEDirectory,
      let xml = try? String(contentsOfFile: "\(directory)/\(mimeType).xml", encoding: .utf8)
    {
      let description = try #require(type.localizedDescription)
      #expect(xml.contains("<comment>\(description)</comment>"))
    }
  }

  @Test func doomWADExtensionFindsIt() throws {
    try #require(
      types.contains("application/x-doom-wad"), "application/x-doom-wad is not in the database")
    let globs = mimeDatabaseLines("globs2")
    try #require(globs.contains("80:application/x-doom-wad:*.wad"))
    // Heavier glob (80) than application/x-wii-wad's (50).
    #expect(
      UTType(filenameExtension: "wad")?.identifier == "org.freedesktop.mime.application.x-doom-wad")
    #expect(UTType(filenameExtension: "wad")?.preferredFilenameExtension == "wad")
  }

  @Test func everySubclassIsAConformance() throws {
    var checked = 0
    for line in mimeDatabaseLines("subclasses") {
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count == 2 else { continue }
      guard
        let child = registry.preferredRecord(
          tag: fields[0], tagClass: .mimeType, conformingTo: nil),
        child.layer == .mimeDatabase
      else { continue }
      let parent = try #require(
        registry.preferredRecord(tag: fields[1], tagClass: .mimeType, conformingTo: nil),
        "\(fields[1]) is a type")
      #expect(registry.conforms(child.key, to: parent.key), "\(fields[0]) → \(fields[1])")
      checked += 1
    }
    #expect(checked > 50)
  }

  @Test func oneRealSubclassThroughThePublicAPI() throws {
    let pairs = mimeDatabaseLines("subclasses").map { $0.split(separator: " ").map(String.init) }
    let pair = try #require(
      pairs.first { pair in
        pair.count == 2
          && [pair[0], pair[1]].allSatisfy {
            UTType(mimeType: $0, conformingTo: .item)?.identifier.hasPrefix("org.freedesktop.mime.")
              == true
          }
      }, "no subclass pair of two database-only types")
    let child = try #require(UTType(mimeType: pair[0], conformingTo: .item))
    let parent = try #require(UTType(mimeType: pair[1], conformingTo: .item))
    #expect(child.conforms(to: parent))
    #expect(child.isSubtype(of: parent))
    #expect(child.supertypes.contains(parent))
    #expect(child._parents.contains(parent))
  }

  @Test func everyAliasIsAMIMETag() throws {
    var checked = 0
    for line in mimeDatabaseLines("aliases") {
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count == 2,
        let target = registry.preferredRecord(
          tag: fields[1], tagClass: .mimeType, conformingTo: nil)
      else { continue }
      let byAlias = registry.preferredRecord(tag: fields[0], tagClass: .mimeType, conformingTo: nil)
      // A system type that declares the alias as its own MIME type keeps it (Apple has
      // public.heic beside public.heif where the database calls image/heic an alias).
      let normalizedAlias = TagNormalization.normalizeMIMEType(fields[0])
      if let owner = SystemTypeTable.catalog.claims(on: normalizedAlias, in: .mimeType).first {
        #expect(byAlias?.key == owner.key, "\(fields[0]) stays with its system type")
      } else {
        #expect(byAlias?.key == target.key, "\(fields[0]) is an alias of \(fields[1])")
      }
      let tags = registry.tags(ofKey: target.key, includingMIMEDatabase: true)[.mimeType] ?? []
      #expect(
        tags.map(TagNormalization.normalizeMIMEType).contains(
          TagNormalization.normalizeMIMEType(fields[0])),
        "\(target.identifier) carries \(fields[0])")
      checked += 1
    }
    #expect(checked > 50)
  }

  @Test func everySimpleGlobIsAnExtensionTag() throws {
    var checked = 0
    for line in mimeDatabaseLines("globs2") {
      let fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 3, fields[2].hasPrefix("*.") else { continue }
      let ext = String(fields[2].dropFirst(2))
      guard !ext.contains(where: { "*?[".contains($0) }) else { continue }
      let type = try #require(
        registry.preferredRecord(tag: fields[1], tagClass: .mimeType, conformingTo: nil),
        "\(fields[1]) is a type")
      let tags =
        registry.tags(ofKey: type.key, includingMIMEDatabase: true)[.filenameExtension] ?? []
      #expect(
        tags.map { $0.lowercased() }.contains(ext.lowercased()),
        "\(type.identifier) carries .\(ext)")
      let carriers = registry.allRecords(tag: ext, tagClass: .filenameExtension, conformingTo: nil)
      #expect(carriers.contains { $0.key == type.key }, ".\(ext) lists \(type.identifier)")
      checked += 1
    }
    #expect(checked > 100)
  }

  @Test func everyTextTypeConformsToText() throws {
    var checked = 0
    for mimeType in types where mimeType.hasPrefix("text/") {
      let record = try #require(
        registry.preferredRecord(tag: mimeType, tagClass: .mimeType, conformingTo: nil),
        "\(mimeType)")
      #expect(
        registry.conforms(record.key, to: "public.text"), "\(mimeType) → \(record.identifier)")
      checked += 1
    }
    #expect(checked > 20)
  }

  @Test func pngIsApplesPNG() throws {
    try #require(types.contains("image/png"))
    #expect(registry.preferredIdentifier("image/png", .mimeType) == "public.png")
    #expect(UTType(mimeType: "image/png") == .png)
    #expect(registry.record("org.freedesktop.mime.image.png") == nil)
    #expect(UTType("org.freedesktop.mime.image.png") == nil)
  }

  @Test func everyDerivedIdentifierIsValidAndUnique() throws {
    let directory = try #require(systemMIMEDirectory)
    let database = SharedMIMEDatabase.load(directories: [directory])
    #expect(database.entries.count > 100)
    var seen: [String: String] = [:]
    for entry in database.entries {
      let identifier = entry.declaration.identifier
      #expect(TypeIdentifier.isValid(identifier), "\(identifier)")
      #expect(identifier.hasPrefix(SharedMIMEDatabase.derivedPrefix))
      let key = TypeIdentifier.key(identifier)
      #expect(SystemTypeTable.catalog.records[key] == nil, "\(identifier) is not a system type")
      let mimeType = entry.declaration.tags[.mimeType]?.first ?? "?"
      if let other = seen[key] {
        Issue.record("\(identifier) derived from both \(other) and \(mimeType)")
      }
      seen[key] = mimeType
    }
    // Every MIME type of the database has a type, and distinct MIME types only share one
    // when it is a system type.
    // A type of its own that is also an alias (LibreOffice's application/vnd.ms-word) shares
    // the identifier of the type the alias names.
    let aliases = Set(
      mimeDatabaseLines("aliases").compactMap { line in
        line.split(separator: " ").first.map { TagNormalization.normalizeMIMEType(String($0)) }
      })
    var owners: [String: String] = [:]
    for mimeType in types.map(TagNormalization.normalizeMIMEType) {
      let identifier = try #require(database.identifiers[mimeType], "\(mimeType) has an identifier")
      if !identifier.hasPrefix(SharedMIMEDatabase.derivedPrefix) || aliases.contains(mimeType) {
        continue
      }
      #expect(
        owners[identifier] == nil, "\(identifier) for \(owners[identifier] ?? "") and \(mimeType)")
      owners[identifier] = mimeType
      #expect(registry.record(identifier)?.identifier == identifier)
    }
  }

  @Test func systemLookupsNeverLoadTheSystemDatabase() {
    let fresh = privateRegistry(mimeDirectories: systemMIMEDirectory.map { [$0] } ?? [])
    for ext in ["png", "jpg", "txt", "html", "mp4", "plist", "json", "pdf"] {
      #expect(
        fresh.preferredRecord(tag: ext, tagClass: .filenameExtension, conformingTo: "public.data")?
          .layer == .system)
    }
    for mimeType in [
      "image/png", "text/plain;charset=utf-8", "text/uri-list", "application/octet-stream",
    ] {
      #expect(
        fresh.preferredRecord(tag: mimeType, tagClass: .mimeType, conformingTo: nil)?.layer
          == .system)
    }
    for target in [
      "UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT", "text/uri-list", "image/png",
      "x-special/gnome-copied-files",
    ] {
      #expect(
        fresh.preferredRecord(tag: target, tagClass: .x11Target, conformingTo: nil)?.layer
          == .system, "\(target)")
    }
    #expect(fresh.conforms("public.jpeg", to: "public.content"))
    #expect(!fresh.isMIMEDatabaseLoaded)
  }

  @Test func everyDatabaseMIMETypeFindsADeclaredType() throws {
    for mimeType in types {
      let record = registry.preferredRecord(tag: mimeType, tagClass: .mimeType, conformingTo: nil)
      #expect(record != nil, "\(mimeType)")
    }
  }
}
