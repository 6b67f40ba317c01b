import Testing

@testable import UniformTypeIdentifiers

/// The allocation-free paths of tag lookups agree with the plain definitions they replace:
/// normalization on the stack with `TagNormalization.normalize`, the byte-keyed index with a
/// dictionary, the dynamic-identifier encoder with the reference encoder.
@Suite("Lookup paths")
struct LookupPathTests {
  @Test(arguments: [
    ("jpg", UTTagClass.filenameExtension), (".JPG", .filenameExtension),
    ("Tar.GZ", .filenameExtension), ("..dots", .filenameExtension), ("", .filenameExtension),
    (".", .filenameExtension), ("ÉTÉ", .filenameExtension), ("İx", .filenameExtension),
    (String(repeating: "Ab", count: 100), .filenameExtension),
    ("image/PNG", .mimeType), ("Text/Plain; Charset=\"UTF-8\"", .mimeType),
    ("text/plain;\tcharset = utf-8", .mimeType), ("ÄPPLICATION/x-ü", .mimeType),
    (String(repeating: "a/B ", count: 50), .mimeType),
    ("UTF8_STRING", .x11Target), ("Text/Plain", .x11Target),
    ("TEXT", UTTagClass(rawValue: "com.apple.ostype")),
  ])
  func normalizedBytesAreTheNormalizedString(_ tag: String, _ tagClass: UTTagClass) {
    let expected = Array(TagNormalization.normalize(tag, in: tagClass).utf8)
    let (bytes, hash) = TagNormalization.withNormalized(tag, in: tagClass) {
      (Array($0.bytes), $0.hash)
    }
    #expect(bytes == expected)
    #expect(hash == expected.withUnsafeBufferPointer { NormalizedTag($0).hash })
  }

  @Test func indexFindsEveryTagAndNoOther() {
    let record = SystemTypeTable.records[0]
    var claimsByTag: [String: [TypeCatalog.TagClaim]] = [:]
    for number in 0..<1000 {
      claimsByTag["tag\(number)"] = (0...number % 3).map { order in
        TypeCatalog.TagClaim(
          record: record, layer: .system, isPreferred: order == 0, weight: 50, depth: 0,
          order: number * 10 + order)
      }
    }
    let index = TagIndex(claimsByTag)
    func orders(_ tag: String) -> [Int] {
      var tag = tag
      return tag.withUTF8 { index.claims(on: NormalizedTag($0)).map(\.order) }
    }
    for (tag, claims) in claimsByTag { #expect(orders(tag) == claims.map(\.order), "\(tag)") }
    for absent in ["", "tag", "tag1000", "tag01", "Tag1", "tag1 "] {
      #expect(orders(absent).isEmpty, "\(absent)")
    }
    let nothing = NormalizedTag(UnsafeBufferPointer(start: nil, count: 0))
    #expect(TagIndex([:]).claims(on: nothing).isEmpty)
  }

  /// Payloads of every length from 8 to 47 bytes: whole five-byte groups and every remainder.
  @Test func encoderAgreesWithTheReferenceAtEveryLength() {
    for length in 1...40 {
      let tag = String((0..<length).map { index in Array("a,b:c\\dEF-9.")[index % 12] })
      let escaped = tag.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: ":", with: "\\:")
      #expect(
        DynamicIdentifier.encode(
          tag: tag, tagClass: .filenameExtension, conformingTo: "public.data")
          == ReferenceDyn.encode("?0=6:1=" + escaped))
      #expect(
        DynamicIdentifier.encode(tag: tag, tagClass: .x11Target, conformingTo: nil)
          == ReferenceDyn.encode("org.x.selection-target=" + escaped))
    }
  }

  @Test func encoderWritesParentsAsBefore() {
    // An abbreviation whatever the parent's case; a parent without one in full, as spelled.
    #expect(
      DynamicIdentifier.encode(tag: "x", tagClass: .mimeType, conformingTo: "PUBLIC.Image")
        == ReferenceDyn.encode("?0=B:3=x"))
    #expect(
      DynamicIdentifier.encode(tag: "x", tagClass: .mimeType, conformingTo: "Org.Example.A:B")
        == ReferenceDyn.encode("?0=Org.Example.A\\:B:3=x"))
  }

  @Test func nonASCIITagsAreEscapedByCharacter() {
    // A backslash followed by a combining mark is one Character, which is not a backslash.
    let tag = "é,\\\u{301}"
    #expect(
      DynamicIdentifier.encode(tag: tag, tagClass: .filenameExtension, conformingTo: nil)
        == ReferenceDyn.encode("1=é\\,\\\u{301}"))
    let type = UTType(filenameExtension: tag)
    #expect(type.flatMap { UTType($0.identifier) }?.preferredFilenameExtension == tag)
  }

  @Test func tagClassesCompareByIdentifier() throws {
    #expect(UTTagClass(rawValue: "public.mime-type") == .mimeType)
    #expect(UTTagClass(rawValue: "public.mime-type").hashValue == UTTagClass.mimeType.hashValue)
    #expect(UTTagClass(rawValue: "public.mime-type").kind == .mimeType)
    #expect(UTTagClass.mimeType != .filenameExtension)
    #expect(UTTagClass(rawValue: "com.apple.ostype") == UTTagClass(rawValue: "com.apple.ostype"))
    #expect(
      UTTagClass(rawValue: "com.apple.ostype") != UTTagClass(rawValue: "com.apple.nspboard-type"))
    #expect(UTTagClass(rawValue: "com.apple.ostype") != .x11Target)
  }

  /// A lookup allocates nothing: every value of a declared type holds the name its record made,
  /// and a value of a system type holds only its row.
  @Test func lookupsShareTheRecordsName() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        try declarationJSON(exported: [
          entry(
            "org.ferrytests.lookup-path.shared", conformsTo: ["public.data"],
            extensions: ["ftshared"])
        ]), to: "shared.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      let first = try #require(UTType(filenameExtension: "ftshared"))
      let second = try #require(UTType(filenameExtension: "FTSHARED"))
      guard case .name(let firstName) = first.storage, case .name(let secondName) = second.storage
      else {
        Issue.record("a declared type is held by name")
        return
      }
      #expect(firstName === secondName)
      let png = try #require(UTType(filenameExtension: "png"))
      guard case .system(let row) = png.storage else {
        Issue.record("a system type is held by row")
        return
      }
      #expect(SystemTypeTable.records[Int(row)].identifier == "public.png")
    }
  }
}
