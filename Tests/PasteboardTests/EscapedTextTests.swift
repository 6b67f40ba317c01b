import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// GTK's lenient `STRING` and `text/plain` forms, byte for byte as a GTK 3.24 owner served
/// them on this machine (`xclip -o -t STRING` / `-t text/plain` from Tests/Peers/gtk_clipboard.py),
/// whatever the chunks.
@Suite struct EscapedTextTests {
  /// Escapes, controls and line breaks in one text, as measured.
  static let mixed = "Grüße — 日本語 😀 a\u{01}b\u{7F}c\td\r\ne\nf\u{85}g\u{A0}h\u{FFFF}\\u"
  static let mixedAsSTRING: [UInt8] =
    Array("Gr".utf8) + [0xFC, 0xDF]
    + Array("e \\u2014 \\u65e5\\u672c\\u8a9e \\U0001f600 abc\td\ne\nfg".utf8)
    + [0xA0] + Array("h\\uffff\\u".utf8)
  static let mixedAsTextPlain: [UInt8] = Array(
    "Gr\\u00fc\\u00dfe \\u2014 \\u65e5\\u672c\\u8a9e \\U0001f600 a\u{01}b\u{7F}c\td\r\ne\r\nf\\u0085g\\u00a0h\\uffff\\u"
      .utf8)
  /// Lone and doubled carriage returns: GTK's text/plain writes CR CR as CR LF CR.
  static let returns = "a\rb\r\rc\n\rd"
  static let returnsAsSTRING = Array("a\nb\n\nc\n\nd".utf8)
  static let returnsAsTextPlain = Array("a\r\nb\r\n\rc\r\n\r\nd".utf8)

  func escape(_ text: String, _ form: EscapedTextForm, chunk size: Int) throws -> [UInt8] {
    try transcodeInChunks(Array(text.utf8), .utf8, .escaped(form), chunk: size)
  }

  @Test(arguments: [1, 2, 3, 5, 1 << 16])
  func matchesGTKWhateverTheChunks(size: Int) throws {
    #expect(try escape(Self.mixed, .latin1, chunk: size) == Self.mixedAsSTRING)
    #expect(try escape(Self.mixed, .asciiCRLF, chunk: size) == Self.mixedAsTextPlain)
    #expect(try escape(Self.returns, .latin1, chunk: size) == Self.returnsAsSTRING)
    #expect(try escape(Self.returns, .asciiCRLF, chunk: size) == Self.returnsAsTextPlain)
    #expect(try escape("end\r", .asciiCRLF, chunk: size) == Array("end\r\n".utf8))
  }

  @Test func largeTextGoesToTheSpoolAndLatin1StaysStrict() async throws {
    let text = String(repeating: "日本語 é\n", count: 200_000)  // 2.6 MB, past the in-memory limit
    let item = PasteboardItem(representations: [.data(Data(text.utf8), type: .utf8PlainText)])
    let payload = try await item.escapedText(.latin1)
    guard case .file = payload else {
      Issue.record("a large escaped text should be spooled, got \(payload)")
      return
    }
    let expected = String(repeating: "\\u65e5\\u672c\\u8a9e \u{E9}\n", count: 200_000)
    #expect(try payload.data() == Data(expected.unicodeScalars.map { UInt8($0.value) }))
    await #expect(throws: PasteboardError.self) { try await item.data(for: .latin1PlainText) }
  }
}
