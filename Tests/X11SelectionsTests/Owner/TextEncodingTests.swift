import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

/// Text targets, checked byte for byte with our probe (xclip and xsel put UTF-8 in STRING, so
/// they cannot tell a correct owner from a wrong one): UTF-8, Latin-1 conversion and refusal,
/// TEXT, COMPOUND_TEXT, and Ferry's decoding of each.
@Suite(.skipsWithoutPeers) struct TextEncodingTests {
  @Test(arguments: ["UTF8_STRING", "text/plain;charset=utf-8"])
  func utf8TargetsCarryUTF8(target: String) async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("utf8")
    let text = "héllo wörld 5 € 🚢"
    try await display.own(selection, item: textItem(text))
    let reply = try await SelectionProbe.get(selection, target, display: xvfb.name)
    #expect(reply.type == target && reply.format == 8, "\(reply)")
    #expect(reply.hex == utf8Hex(text))
  }

  @Test func stringIsLatin1() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("latin1")
    try await display.own(selection, item: textItem("héllo"))
    let reply = try await SelectionProbe.get(selection, "STRING", display: xvfb.name)
    #expect(reply.type == "STRING" && reply.format == 8, "\(reply)")
    #expect(reply.hex == "68e96c6c6f", "h é l l o in ISO 8859-1, not UTF-8")
  }

  /// Issue 19: like a GTK owner, STRING and text/plain are advertised and served for any
  /// text, with escapes for what Latin-1 or ASCII cannot hold (bytes measured from GTK 3.24).
  @Test(arguments: [
    ("5 €", "35205c7532306163", "35205c7532306163"),
    (
      "Grüße — 日本語", "4772fcdf65205c7532303134205c75363565355c75363732635c7538613965",
      "47725c75303066635c753030646665205c7532303134205c75363565355c75363732635c7538613965"
    ),
    ("plain\nascii", "706c61696e0a6173636969", "706c61696e0d0a6173636969"),
  ])
  func stringAndPlainTextAreServedForAnyTextAsGTKServesThem(
    text: String, string: String, plain: String
  ) async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("escaped")
    try await display.own(selection, item: textItem(text))
    let targets = try await SelectionProbe.get(selection, "TARGETS", display: xvfb.name).atoms
    #expect(targets.contains("STRING") && targets.contains("text/plain"), "\(targets)")
    let latin1 = try await SelectionProbe.get(selection, "STRING", display: xvfb.name)
    #expect(latin1.type == "STRING" && latin1.hex == string, "\(latin1)")
    let ascii = try await SelectionProbe.get(selection, "text/plain", display: xvfb.name)
    #expect(ascii.type == "text/plain" && ascii.hex == plain, "\(ascii)")
    let utf8 = try await SelectionProbe.get(selection, "UTF8_STRING", display: xvfb.name)
    #expect(utf8.hex == utf8Hex(text))
  }

  @Test func textIsAnsweredWithItsRealType() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("text")
    try await display.own(selection, item: textItem("5 € ok"))
    let reply = try await SelectionProbe.get(selection, "TEXT", display: xvfb.name)
    // TEXT is "the owner's choice"; the requestor must look at the type it got.
    #expect(reply.type == "UTF8_STRING", "\(reply)")
    #expect(reply.hex == utf8Hex("5 € ok"))
  }

  @Test func compoundTextOfLatin1TextIsCompoundText() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("ctext")
    try await display.own(selection, item: textItem("héllo"))
    let reply = try await SelectionProbe.get(selection, "COMPOUND_TEXT", display: xvfb.name)
    #expect(reply.type == "COMPOUND_TEXT" && reply.format == 8, "\(reply)")
    // ISO 2022 starts in ASCII / Latin-1 right half: the bytes equal Latin-1 here (GTK's too).
    #expect(reply.hex == "68e96c6c6f")
  }

  @Test(arguments: ["héllo", "5 € ok", "plain ascii"])
  func compoundTextRoundTripsThroughFerry(text: String) async throws {
    let (_, owner) = try await openDisplay()
    defer { owner.close() }
    let (_, reader) = try await openDisplay()
    defer { reader.close() }
    let selection = uniqueSelection("ctextrt")
    try await owner.own(selection, item: textItem(text))
    let reply = try await reader.read(selection, target: "COMPOUND_TEXT")
    #expect(reply.type == "COMPOUND_TEXT")
    #expect(try await reader.decodeText(reply) == text)
  }

  @Test func ferryDecodesLatin1String() async throws {
    let (_, owner) = try await openDisplay()
    defer { owner.close() }
    let (_, reader) = try await openDisplay()
    defer { reader.close() }
    let selection = uniqueSelection("latin1rt")
    try await owner.own(selection, item: textItem("héllo ÿ"))
    let reply = try await reader.read(selection, target: "STRING")
    #expect(
      reply.type == "STRING" && reply.data == Data([0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0xFF]))
    #expect(try await reader.decodeText(reply) == "héllo ÿ")
  }

  @Test func readTextPrefersUTF8() async throws {
    let (_, owner) = try await openDisplay()
    defer { owner.close() }
    let (_, reader) = try await openDisplay()
    defer { reader.close() }
    let selection = uniqueSelection("readtext")
    try await owner.own(selection, item: textItem("5 € 🚢"))
    #expect(try await reader.readText(selection) == "5 € 🚢")
  }
}
