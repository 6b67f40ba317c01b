import Testing

@testable import UniformTypeIdentifiers

/// The reference's own encoder and decoder (section 3), written independently of the
/// library's: payload bytes MSB-first in 5-bit groups over `abcdefghkmnpqrstuvwxyz0123456789`.
enum ReferenceDyn {
  static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789")

  static func encode(_ payload: String) -> String {
    var bits = payload.utf8.map { byte in
      let binary = String(byte, radix: 2)
      return String(repeating: "0", count: 8 - binary.count) + binary
    }.joined()
    bits += String(repeating: "0", count: (5 - bits.count % 5) % 5)
    let characters = Array(bits)
    var result = "dyn.a"
    for start in stride(from: 0, to: characters.count, by: 5) {
      result.append(alphabet[Int(String(characters[start..<start + 5]), radix: 2)!])
    }
    return result
  }

  static func decode(_ identifier: String) -> String? {
    guard identifier.hasPrefix("dyn.a") else { return nil }
    var bits = ""
    for character in identifier.dropFirst(5) {
      guard let index = alphabet.firstIndex(of: character) else { return nil }
      let binary = String(index, radix: 2)
      bits += String(repeating: "0", count: 5 - binary.count) + binary
    }
    let characters = Array(bits)
    var bytes: [UInt8] = []
    var start = 0
    while start + 8 <= characters.count {
      bytes.append(UInt8(String(characters[start..<start + 8]), radix: 2)!)
      start += 8
    }
    return String(validating: bytes, as: UTF8.self)
  }
}

@Suite("Dynamic identifiers")
struct DynamicIdentifierTests {
  // MARK: Apple's published identifiers

  @Test func unknownExtensionIsApplesTurtle() throws {
    let turtle = try #require(UTType(filenameExtension: "turtle"))
    #expect(turtle.identifier == "dyn.ah62d4rv4ge81k7pwsv0gn")
    #expect(ReferenceDyn.decode(turtle.identifier) == "?0=6:1=turtle")
    #expect(ReferenceDyn.encode("?0=6:1=turtle") == "dyn.ah62d4rv4ge81k7pwsv0gn")
    #expect(UTType(filenameExtension: "turtle", conformingTo: .data) == turtle)
  }

  @Test func unknownMIMETypeConformingToImage() throws {
    let type = try #require(UTType(mimeType: "image/x-foo", conformingTo: .image))
    #expect(type.identifier == "dyn.ah62d4uv4gq80w5pbq7ww88brq3108")
    #expect(ReferenceDyn.decode(type.identifier) == "?0=B:3=image/x-foo")
    #expect(type.conforms(to: .image))
    #expect(type.conforms(to: .data))
    #expect(type.preferredMIMEType == "image/x-foo")
  }

  @Test func documentedMIMEExample() throws {
    // The example in UTType's own documentation.
    let type = try #require(UTType(mimeType: "application/x-foo"))
    // The reference encoder gives this identifier for `?0=6:3=application/x-foo`.
    #expect(type.identifier == ReferenceDyn.encode("?0=6:3=application/x-foo"))
    #expect(type.identifier == "dyn.ah62d4rv4gq80c6durvy0g2pyrf106p52fzxg852")
  }

  @Test(arguments: [
    (
      "dyn.ah62d4rv4gu8y6y4grf0gn5xbrzw1gydcr7u1e3cytf2gn", ["public.data"],
      "com.apple.nspboard-type", "NSFilenamesPboardType"
    ),
    ("dyn.age80835h", [], "public.filename-extension", "ogg"),
    ("dyn.age81e2pw", [], "public.filename-extension", "rar"),
    ("dyn.ah62d4rv4gk8zuxnxnq", ["public.data"], "com.apple.ostype", "XMSS"),
    ("dyn.ah62d4rv4ge81k7pwsv0gn", ["public.data"], "public.filename-extension", "turtle"),
    ("dyn.ah62d4uv4gq80w5pbq7ww88brq3108", ["public.image"], "public.mime-type", "image/x-foo"),
  ])
  func publishedIdentifierDecodes(
    _ identifier: String, _ parents: [String], _ tagClass: String, _ tag: String
  ) throws {
    let payload = try #require(DynamicIdentifier.decode(identifier))
    #expect(payload.conformsTo == parents)
    #expect(payload.tags.count == 1)
    #expect(payload.tags.first?.0 == UTTagClass(rawValue: tagClass))
    #expect(payload.tags.first?.1 == [tag])
    // Encoding the decoded tag again gives the identifier back, bit for bit.
    let encoded = DynamicIdentifier.encode(
      tag: tag, tagClass: UTTagClass(rawValue: tagClass), conformingTo: parents.first)
    #expect(encoded == identifier)

    let type = try #require(UTType(identifier))
    #expect(type.identifier == identifier)
    #expect(type.isDynamic)
    #expect(!type.isDeclared)
    #expect(!type.isPublic)
    #expect(type.localizedDescription == nil)
    #expect(type.tags[UTTagClass(rawValue: tagClass)] == [tag])
    #expect(type.referenceURL == nil)
    #expect(type.version == nil)
    for parent in parents {
      let parentType = try #require(UTType(parent))
      #expect(type.conforms(to: parentType))
      #expect(type.isSubtype(of: parentType))
      #expect(type.supertypes.contains(parentType))
      #expect(type.supertypes.isSuperset(of: parentType.supertypes))
    }
    if parents.isEmpty {
      #expect(type.supertypes.isEmpty)
      #expect(!type.conforms(to: .data))
    }
  }

  @Test func oggWithoutConformanceKeepsItsExtension() throws {
    let ogg = try #require(UTType("dyn.age80835h"))
    #expect(ogg.preferredFilenameExtension == "ogg")
    #expect(ogg.preferredMIMEType == nil)
    #expect(ReferenceDyn.decode("dyn.age80835h") == "1=ogg")
    #expect(
      DynamicIdentifier.encode(tag: "ogg", tagClass: .filenameExtension, conformingTo: nil)
        == "dyn.age80835h")
  }

  @Test func emptyExtensionDecodes() throws {
    // `dyn.age8u` is Apple's "no extension": `1=`.
    #expect(ReferenceDyn.decode("dyn.age8u") == "1=")
    let payload = try #require(DynamicIdentifier.decode("dyn.age8u"))
    #expect(payload.tags.first?.0 == .filenameExtension)
    #expect(payload.tags.first?.1 == [""])
  }

  // MARK: Round trips

  @Test(arguments: [
    ("turtle", UTTagClass.filenameExtension), ("FerryTests", .filenameExtension),
    ("application/x-ferry-tests", .mimeType), ("image/x-ferry; q=\"1\"", .mimeType),
    ("_FERRY_ATOM", .x11Target), ("comma,colon:backslash\\end", .filenameExtension),
    ("\\,:", .mimeType), ("ünïcødé", .filenameExtension), ("a b\tc", .x11Target),
  ])
  func dynamicTypeRoundTrips(_ tag: String, _ tagClass: UTTagClass) throws {
    for parent in [nil, UTType.data, .image, .plainText, .folder] as [UTType?] {
      let type = try #require(UTType(tag: tag, tagClass: tagClass, conformingTo: parent))
      #expect(type.isDynamic)
      #expect(!type.isDeclared)
      #expect(type.localizedDescription == nil)
      #expect(
        type.identifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") })
      #expect(TypeIdentifier.isValid(type.identifier))

      let decoded = try #require(UTType(type.identifier), "\(type.identifier) decodes")
      #expect(decoded == type)
      #expect(decoded.tags[tagClass] == [tag])
      if tagClass == .filenameExtension { #expect(decoded.preferredFilenameExtension == tag) }
      if tagClass == .mimeType { #expect(decoded.preferredMIMEType == tag) }
      if let parent {
        #expect(decoded.conforms(to: parent))
        #expect(decoded.supertypes.contains(parent))
        #expect(decoded.supertypes.isSuperset(of: parent.supertypes))
      } else {
        #expect(decoded.supertypes.isEmpty)
      }
      // The identifier is the reference encoding of a payload that decodes to the same tag.
      let raw = try #require(ReferenceDyn.decode(type.identifier))
      #expect(ReferenceDyn.encode(raw) == type.identifier)
      // Same input, same identifier.
      #expect(
        UTType(tag: tag, tagClass: tagClass, conformingTo: parent)?.identifier == type.identifier)
    }
  }

  @Test func specialCharactersAreEscapedWithBackslash() throws {
    let type = try #require(UTType(filenameExtension: "a,b:c\\d"))
    #expect(ReferenceDyn.decode(type.identifier) == #"?0=6:1=a\,b\:c\\d"#)
    #expect(UTType(type.identifier)?.preferredFilenameExtension == "a,b:c\\d")
  }

  @Test func parentsWithoutAbbreviationAreWrittenInFull() throws {
    let type = try #require(UTType(filenameExtension: "turtle", conformingTo: .plainText))
    #expect(ReferenceDyn.decode(type.identifier) == "?0=public.plain-text:1=turtle")
    #expect(type.conforms(to: .text))
    #expect(type.conforms(to: .item))
    let image = try #require(UTType(filenameExtension: "turtle", conformingTo: .image))
    #expect(ReferenceDyn.decode(image.identifier) == "?0=B:1=turtle")
  }

  @Test func reportedAbbreviationsDecode() throws {
    let text = try #require(DynamicIdentifier.decode(ReferenceDyn.encode("?0=7:1=x")))
    #expect(text.conformsTo == ["public.text"])
    let several = try #require(DynamicIdentifier.decode(ReferenceDyn.encode("?0=6,7:1=x,y:3=a/b")))
    #expect(several.conformsTo == ["public.data", "public.text"])
    #expect(several.tags.map(\.0) == [.filenameExtension, .mimeType])
    #expect(several.tags.map(\.1) == [["x", "y"], ["a/b"]])
    let device = try #require(DynamicIdentifier.decode(ReferenceDyn.encode(#"14=Foo1\,1"#)))
    #expect(device.tags.first?.0 == UTTagClass(rawValue: "com.apple.device-model-code"))
    #expect(device.tags.first?.1 == ["Foo1,1"])
    let unknown = try #require(DynamicIdentifier.decode(ReferenceDyn.encode("99=abc")))
    #expect(unknown.tags.first?.0 == UTTagClass(rawValue: "99"))
  }

  @Test(arguments: ["dyn.a", "dyn.a!!", "dyn.aiii", "dyn.xyz", "dyn.", "dyn.ao"])
  func malformedIdentifiersAreNotTypes(_ identifier: String) {
    #expect(UTType(identifier) == nil)
  }
}
