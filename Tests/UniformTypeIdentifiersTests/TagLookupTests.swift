import Testing

@testable import UniformTypeIdentifiers

@Suite("Tag lookups")
struct TagLookupTests {
  @Test(arguments: [
    ("jpg", UTType.jpeg), ("jpeg", .jpeg), ("JPG", .jpeg), ("png", .png), ("txt", .plainText),
    ("html", .html), ("json", .json), ("pdf", .pdf), ("swift", .swiftSource),
    ("c++", .cPlusPlusSource),
    ("gz", .gzip), ("zip", .zip), ("mp3", .mp3), ("mov", .quickTimeMovie),
  ])
  func extensionFindsType(_ ext: String, _ expected: UTType) throws {
    let type = try #require(UTType(filenameExtension: ext))
    #expect(type == expected)
    #expect(type.preferredFilenameExtension == expected.preferredFilenameExtension)
  }

  @Test(arguments: [
    ("image/png", UTType.png), ("IMAGE/PNG", .png), ("image/jpg", .jpeg),
    ("text/plain", .plainText),
    ("text/html", .html), ("application/json", .json), ("application/pdf", .pdf),
    ("text/xml", .xml), ("audio/x-wav", .wav), ("application/octet-stream", .data),
    ("text/plain;charset=utf-8", .utf8PlainText),
    ("text/plain; charset=\"UTF-8\"", .utf8PlainText),
    ("Text/Plain ;  Charset=utf-8", .utf8PlainText),
    ("text/plain;charset=utf-16", .utf16PlainText),
    ("text/plain; charset=\"utf-16\"", .utf16PlainText),
  ])
  func mimeTypeFindsType(_ mimeType: String, _ expected: UTType) throws {
    let type = try #require(UTType(mimeType: mimeType))
    #expect(type == expected)
  }

  @Test func typeFindsItsTagsBothWays() throws {
    for type in [UTType.png, .jpeg, .pdf, .html, .mp3] {
      let ext = try #require(type.preferredFilenameExtension)
      let mimeType = try #require(type.preferredMIMEType)
      #expect(UTType(filenameExtension: ext) == type)
      #expect(UTType(mimeType: mimeType) == type)
    }
  }

  @Test func supertypeDisambiguatesMP4() throws {
    #expect(UTType(filenameExtension: "mp4") == .mpeg4Movie)
    #expect(UTType(filenameExtension: "mp4", conformingTo: .audio) == .mpeg4Audio)
    #expect(UTType(filenameExtension: "mp4", conformingTo: .movie) == .mpeg4Movie)
    #expect(UTType(filenameExtension: "mpg4", conformingTo: .audio) == .mpeg4Audio)
    #expect(UTType(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil) == .mpeg4Movie)
  }

  @Test func supertypeThatNothingMatchesGivesDynamicType() throws {
    let type = try #require(UTType(filenameExtension: "png", conformingTo: .audio))
    #expect(type.isDynamic)
    #expect(type.conforms(to: .audio))
    #expect(type.preferredFilenameExtension == "png")
  }

  @Test func typesListsEveryCarrierPreferredFirst() throws {
    let mp4 = UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil)
    #expect(Array(mp4.prefix(2)) == [.mpeg4Movie, .mpeg4Audio])
    #expect(Set(mp4).count == mp4.count, "no type listed twice")

    let audio = UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: .audio)
    #expect(audio.first == .mpeg4Audio)
    #expect(!audio.contains(.mpeg4Movie))
    #expect(audio.allSatisfy { $0.conforms(to: .audio) })

    // All three property-list types claim `plist`; the most specific one comes first.
    let plist = UTType.types(tag: "plist", tagClass: .filenameExtension, conformingTo: nil)
    #expect(Array(plist.prefix(3)) == [.xmlPropertyList, .binaryPropertyList, .propertyList])
    #expect(UTType(filenameExtension: "plist") == .xmlPropertyList)
    #expect(
      UTType(tag: "plist", tagClass: .filenameExtension, conformingTo: .propertyList)
        == .xmlPropertyList)

    // The first of `types` is always what the initializer returns.
    for tag in ["mp4", "plist", "aif", "ogg", "ts", "js", "xml", "m3u"] {
      let all = UTType.types(tag: tag, tagClass: .filenameExtension, conformingTo: .data)
      #expect(all.first == UTType(filenameExtension: tag), "\(tag)")
    }
  }

  @Test func typesOfUnknownTagIsOneDynamicType() throws {
    let types = UTType.types(
      tag: "ferrytests-nothing", tagClass: .filenameExtension, conformingTo: .data)
    try #require(types.count == 1)
    #expect(types[0].isDynamic)
    #expect(types[0] == UTType(filenameExtension: "ferrytests-nothing"))
    #expect(UTType.types(tag: "", tagClass: .filenameExtension, conformingTo: nil).isEmpty)
  }

  @Test func emptyTagsGiveNil() {
    #expect(UTType(filenameExtension: "") == nil)
    #expect(UTType(mimeType: "") == nil)
    #expect(UTType(tag: "", tagClass: .x11Target, conformingTo: nil) == nil)
  }

  // MARK: X11 targets

  @Test(arguments: [
    ("UTF8_STRING", "public.utf8-plain-text"),
    ("text/plain;charset=utf-8", "public.utf8-plain-text"),
    ("text/plain", "public.plain-text"),
    ("STRING", "org.x.string"),
    ("TEXT", "org.x.text"),
    ("COMPOUND_TEXT", "org.x.compound-text"),
    ("text/uri-list", "org.freedesktop.uri-list"),
    ("x-special/gnome-copied-files", "org.gnome.copied-files"),
    ("application/x-kde-cutselection", "org.kde.cut-selection"),
    ("x-kde-passwordManagerHint", "org.kde.password-manager-hint"),
    ("image/png", "public.png"),
    ("text/html", "public.html"),
    ("org.nspasteboard.ConcealedType", "org.nspasteboard.ConcealedType"),
  ])
  func x11TargetFindsType(_ target: String, _ identifier: String) throws {
    let type = try #require(UTType(tag: target, tagClass: .x11Target, conformingTo: nil))
    #expect(type.identifier == identifier)
    #expect(!type.isDynamic)
    let all = UTType.types(tag: target, tagClass: .x11Target, conformingTo: nil)
    #expect(all.first?.identifier == identifier)
  }

  @Test func x11TargetsRespectTheSupertype() throws {
    #expect(UTType(tag: "UTF8_STRING", tagClass: .x11Target, conformingTo: .text) == .utf8PlainText)
    let image = try #require(UTType(tag: "UTF8_STRING", tagClass: .x11Target, conformingTo: .image))
    #expect(image.isDynamic)
    #expect(image.conforms(to: .image))
  }

  @Test func mimeNamedDesktopTypesFoundByMIMEType() throws {
    #expect(UTType(mimeType: "text/uri-list")?.identifier == "org.freedesktop.uri-list")
    #expect(
      UTType(mimeType: "x-special/gnome-copied-files")?.identifier == "org.gnome.copied-files")
    #expect(UTType(mimeType: "text/plain;charset=ISO-8859-1")?.identifier == "org.x.string")
  }

  @Test(arguments: ["_FERRY_TESTS_UNKNOWN_ATOM", "utf8_string", "Ferry Tests: odd, atom\\name"])
  func unknownAtomGivesDynamicTypeThatDecodesToTheAtom(_ atom: String) throws {
    let type = try #require(UTType(tag: atom, tagClass: .x11Target, conformingTo: nil))
    #expect(type.isDynamic)
    #expect(!type.isDeclared)
    #expect(type.tags[.x11Target] == [atom])
    let payload = try #require(DynamicIdentifier.decode(type.identifier))
    #expect(payload.conformsTo.isEmpty)
    #expect(payload.tags.count == 1)
    #expect(payload.tags.first?.0 == .x11Target)
    #expect(payload.tags.first?.1 == [atom])
    // The identifier alone brings the type back.
    let again = try #require(UTType(type.identifier))
    #expect(again.tags[.x11Target] == [atom])
    // And the same atom always gives the same identifier.
    #expect(
      UTType(tag: atom, tagClass: .x11Target, conformingTo: nil)?.identifier == type.identifier)
  }

  /// An X target shaped like a MIME type that nobody declared (Qt offers `application/x-…`
  /// as is) is the type `UTType(mimeType:)` makes for it, so a reader naming the MIME type
  /// finds it; a target that is no MIME type keeps a dynamic type of its own.
  @Test func anUnknownMIMEShapedTargetIsThatMIMEType() throws {
    let target = try #require(
      UTType(tag: "application/x-ferry-unknown-9", tagClass: .x11Target, conformingTo: nil))
    #expect(target == UTType(mimeType: "application/x-ferry-unknown-9"))
    #expect(target.preferredMIMEType == "application/x-ferry-unknown-9")
    let atom = try #require(
      UTType(tag: "FERRY_UNKNOWN_ATOM_9", tagClass: .x11Target, conformingTo: nil))
    #expect(atom.isDynamic && atom.preferredMIMEType == nil)
    let withParameter = try #require(
      UTType(tag: "text/x-ferry;charset=utf-8", tagClass: .x11Target, conformingTo: nil))
    #expect(
      withParameter.preferredMIMEType == nil,
      "a parameter makes it an atom name, not a MIME essence")
  }
}
