import Foundation
import ImageConversion
import Testing

/// The image inputs kept in `Fuzz/Findings/` (docs/FUZZING.md), replayed as plain tests.
@Suite struct ImageFuzzFindingTests {
  static let findings = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/Findings")

  /// The 591-byte TIFF whose InkNames tag disagrees with its samples per pixel: libtiff's
  /// message for it holds a newline and an indent, which reached the error (and so a
  /// status line or the log) as two lines until the codecs' messages were flattened.
  @Test func theTIFFWhoseLibraryMessageHasANewlineFailsInOneLine() throws {
    let contents = try Data(
      contentsOf: Self.findings.appendingPathComponent(
        "image-tiff/found-inknames-message-with-newline.tiff"))
    #expect(contents.count == 591)
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(contents, as: .tiff, pixelLimit: 1_000_000)
    }
    let message = try #require(error?.message)
    let lineBreaks = message.filter(\.isNewline).count
    #expect(lineBreaks == 0, "\(message.debugDescription)")
    #expect(!message.contains("  "), "\(message.debugDescription)")
    #expect(message.contains("InkNames"), "\(message)")
  }
}
