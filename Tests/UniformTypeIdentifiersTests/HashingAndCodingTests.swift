import Foundation
import Testing

@testable import UniformTypeIdentifiers

@Suite("Equality, hashing and coding")
struct HashingAndCodingTests {
  @Test func equalityAndHashingIgnoreCase() throws {
    let shouting = try #require(UTType("PUBLIC.JPEG"))
    #expect(shouting == .jpeg)
    #expect(shouting.hashValue == UTType.jpeg.hashValue)
    #expect(Set([shouting, .jpeg, UTType("Public.Jpeg")!]).count == 1)
    let dictionary: [UTType: String] = [.jpeg: "jpeg"]
    #expect(dictionary[shouting] == "jpeg")
    #expect(UTType.jpeg != .png)

    let mixed = UTType(uncheckedIdentifier: "org.FerryTests.Mixed")
    let lower = UTType(uncheckedIdentifier: "org.ferrytests.mixed")
    #expect(mixed == lower)
    #expect(mixed.hashValue == lower.hashValue)
    #expect(mixed.identifier == "org.FerryTests.Mixed", "the spelling is kept")
  }

  @Test func declaredSpellingIsKept() throws {
    let concealed = try #require(UTType("ORG.NSPASTEBOARD.CONCEALEDTYPE"))
    #expect(concealed.identifier == "org.nspasteboard.ConcealedType")
    #expect(UTType("public.jpeg")?.identifier == "public.jpeg")
  }

  @Test func descriptionIsTheIdentifier() {
    #expect(UTType.png.description == "public.png")
    #expect("\(UTType.png)" == "public.png")
    #expect(UTType.png.debugDescription.hasPrefix("public.png"))
  }

  @Test func encodesAsTheIdentifierString() throws {
    let encoded = try JSONEncoder().encode([UTType.png, .utf8PlainText])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["public.png","public.utf8-plain-text"]"#)
    let single = try JSONEncoder().encode(UTType.jpeg)
    #expect(try JSONDecoder().decode(String.self, from: single) == "public.jpeg")
  }

  @Test(arguments: [
    UTType.png, .item, .utf8PlainText, UTType(filenameExtension: "turtle")!,
    UTType(mimeType: "image/x-foo", conformingTo: .image)!,
  ])
  func decodesBack(_ type: UTType) throws {
    let data = try JSONEncoder().encode(["type": type])
    let decoded = try JSONDecoder().decode([String: UTType].self, from: data)
    #expect(decoded["type"] == type)
    #expect(decoded["type"]?.identifier == type.identifier)
    #expect(decoded["type"]?.conforms(to: type) == true)
    #expect(decoded["type"]?.supertypes == type.supertypes)
    // Property lists too.
    let plist = try PropertyListEncoder().encode(["type": type])
    #expect(try PropertyListDecoder().decode([String: UTType].self, from: plist)["type"] == type)
  }

  @Test func undeclaredIdentifiersDecodeUnchanged() throws {
    let data = Data(#"["org.ferrytests.coding.Unknown"]"#.utf8)
    let decoded = try JSONDecoder().decode([UTType].self, from: data)
    #expect(decoded.first?.identifier == "org.ferrytests.coding.Unknown")
    #expect(decoded.first?.isDeclared == false)
    #expect(try JSONEncoder().encode(decoded) == data)
  }

  @Test(arguments: [#""""#, #""not an identifier""#, #""café.types""#, "42", #""public.""#])
  func malformedIdentifiersDoNotDecode(_ json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(UTType.self, from: Data(json.utf8))
    }
  }

  @Test func tagClassIsCodableAsItsRawValue() throws {
    let data = try JSONEncoder().encode([UTTagClass.filenameExtension, .mimeType, .x11Target])
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"["public.filename-extension","public.mime-type","org.x.selection-target"]"#)
    #expect(
      try JSONDecoder().decode([UTTagClass].self, from: data) == [
        .filenameExtension, .mimeType, .x11Target,
      ])
  }
}
