import Foundation
import Testing

@testable import UniformTypeIdentifiers

@Suite struct MIMEMagicTests {
  static let hasDatabase = FileManager.default.fileExists(atPath: "/usr/share/mime/magic")

  @Test(
    .enabled(if: hasDatabase, "needs /usr/share/mime/magic"),
    arguments: [
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] as [UInt8], "public.png"),
      (Array("%PDF-1.7\n".utf8), "com.adobe.pdf"),
      ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] as [UInt8], "public.jpeg"),
      ([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0] as [UInt8], "org.gnu.gnu-zip-archive"),
      (Array("GIF89a".utf8) + [1, 0, 1, 0], "com.compuserve.gif"),
    ])
  func magicNamesCommonFormats(bytes: [UInt8], identifier: String) {
    #expect(UTType._sniffed(from: bytes)?.identifier == identifier)
  }

  @Test(.enabled(if: hasDatabase, "needs /usr/share/mime/magic"))
  func randomBytesHaveNoMagic() {
    #expect(MIMEMagic.mimeType(of: [0x00, 0x13, 0x37, 0x42, 0x99]) == nil)
  }

  @Test func nestedMatchNeedsParentAndChild() {
    let child = MIMEMagic.Match(
      offset: 4, range: 1, value: Array("B".utf8), mask: nil, children: [])
    let parent = MIMEMagic.Match(
      offset: 0, range: 1, value: Array("A".utf8), mask: nil, children: [child])
    #expect(MIMEMagic.matches(parent, Array("A...B".utf8)))
    #expect(!MIMEMagic.matches(parent, Array("A...C".utf8)))
    #expect(!MIMEMagic.matches(parent, Array("X...B".utf8)))
    let ranged = MIMEMagic.Match(
      offset: 0, range: 8, value: Array("hi".utf8), mask: [0xDF, 0xDF], children: [])
    #expect(MIMEMagic.matches(ranged, Array("....HI".utf8)))
    #expect(!MIMEMagic.matches(ranged, Array("........hi".utf8)))
  }
}

/// Inputs the `mime-magic` fuzz target found (docs/FUZZING.md).
@Suite struct MIMEMagicFuzzFindingTests {
  /// A magic file whose match offset has 50 digits: reading the number overflowed `Int` and
  /// trapped (`Scripts/fuzz mime-magic`, its first minute). The file is malformed from that
  /// line on: what came before it is kept, as for any other fault.
  @Test func aNumberTooLargeForAnOffsetEndsTheParse() {
    let header = Array("MIME-Magic\0\n".utf8)
    let good = Array("[50:text/x-good]\n>0=\0\u{2}hi\n".utf8)
    let bad =
      Array("[90:application/vnd.stardivision.writer]\n>2".utf8)
      + Array(repeating: UInt8(ascii: "4"), count: 50)
      + Array("89=\0\nStarWriter\n".utf8)
    let sections = MIMEMagic.parse(header + good + bad)
    #expect(sections.map(\.mimeType) == ["text/x-good"])
  }

  /// A rule indented deeper than `deepestIndent` ends the parse (issue 36): matching recurses
  /// once per level, and 60,000 levels overflowed the stack of whatever sniffed data. Rules up
  /// to that depth still match.
  @Test func aRuleIndentedTooDeepEndsTheParse() {
    let header = Array("MIME-Magic\0\n".utf8)
    func section(_ type: String, depth: Int) -> [UInt8] {
      Array("[50:\(type)]\n".utf8)
        + (0...depth).flatMap { Array("\($0 == 0 ? "" : String($0))>0=\0\u{1}A\n".utf8) }
    }
    let sections = MIMEMagic.parse(
      header + section("text/x-deep-enough", depth: MIMEMagic.deepestIndent)
        + section("text/x-too-deep", depth: 60_000))
    #expect(sections.map(\.mimeType) == ["text/x-deep-enough"])
    #expect(sections.first.map { MIMEMagic.matches($0.matches[0], Array("A".utf8)) } == true)
  }

  /// The same for a priority and a range past `largestNumber`: no section, no trap, and a
  /// range that large never reaches `matches`.
  @Test func aPriorityOrRangeTooLargeIsMalformed() {
    let header = Array("MIME-Magic\0\n".utf8)
    #expect(
      MIMEMagic.parse(header + Array("[99999999999999999999999:text/x-big]\n>0=\0\u{1}a\n".utf8))
        .isEmpty)
    let ranged = MIMEMagic.parse(
      header + Array("[50:text/x-ranged]\n>0=\0\u{1}a+99999999999999999999999\n".utf8))
    #expect(ranged.flatMap(\.matches).allSatisfy { $0.range <= MIMEMagic.largestNumber })
    #expect(
      !ranged.contains { section in
        section.matches.contains { MIMEMagic.matches($0, Array("xyz".utf8)) }
      })
  }
}
