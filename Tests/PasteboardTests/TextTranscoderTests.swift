import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// Text converted a chunk at a time: the same bytes whatever the chunks, characters split
/// between chunks, invalid text refused, and large conversions written to the item's spool.
@Suite struct TextTranscoderTests {
  static let samples = [
    "", "hello", "héllo wörld", "5 € and 日本語", "emoji 🙂 𝄞 ok", String(repeating: "aé€🙂", count: 50),
  ]

  /// Runs `bytes` through a transcoder in chunks of `size`.
  func transcode(
    _ bytes: [UInt8], _ input: TextTranscoder.Input, _ output: TextTranscoder.Output,
    chunk size: Int
  ) throws -> [UInt8] {
    try transcodeInChunks(bytes, input, output, chunk: size)
  }

  func utf16LittleEndian(_ text: String) -> [UInt8] {
    text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
  }

  @Test(arguments: 1...7)
  func chunksOfAnySizeGiveTheSameBytes(size: Int) throws {
    for text in Self.samples {
      let utf8 = Array(text.utf8)
      let utf16 = try transcode(utf8, .utf8, .utf16LittleEndian(byteOrderMark: false), chunk: size)
      #expect(utf16 == utf16LittleEndian(text), "\(text) in chunks of \(size)")
      #expect(try transcode(utf16, .utf16, .utf8, chunk: size) == utf8)
      let marked = try transcode(utf8, .utf8, .utf16LittleEndian(byteOrderMark: true), chunk: size)
      #expect(marked == [0xFF, 0xFE] + utf16)
      #expect(try transcode(marked, .utf16, .utf8, chunk: size) == utf8)
      let bigEndian: [UInt8] =
        [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
      #expect(try transcode(bigEndian, .utf16, .utf8, chunk: size) == utf8)
    }
    let latin1: [UInt8] = [0x68, 0xE9, 0x6C, 0xFF, 0x41]
    #expect(try transcode(latin1, .latin1, .utf8, chunk: size) == Array("hélÿA".utf8))
    #expect(try transcode(Array("hélÿA".utf8), .utf8, .latin1, chunk: size) == latin1)
  }

  @Test(
    arguments: [
      [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80],
      [0xF4, 0x90, 0x80, 0x80],
      [0x61, 0xE2, 0x82], [0x80], [0xC3, 0x41],
    ] as [[UInt8]])
  func invalidUTF8IsRefusedWhereverTheChunksEnd(bytes: [UInt8]) {
    for size in 1...4 {
      #expect(throws: TextEncodingError.self) {
        try transcode(bytes, .utf8, .utf16LittleEndian(byteOrderMark: false), chunk: size)
      }
    }
  }

  @Test func invalidUTF16IsRefused() {
    for bytes: [UInt8] in [
      [0x61], [0x00, 0xD8], [0x00, 0xDC, 0x61, 0x00], [0x00, 0xD8, 0x61, 0x00],
    ] {
      #expect(throws: TextEncodingError.self) { try transcode(bytes, .utf16, .utf8, chunk: 3) }
    }
  }

  @Test func latin1RefusalNamesTheCharacterAndItsOffset() throws {
    do {
      _ = try transcode(Array("abc€".utf8), .utf8, .latin1, chunk: 2)
      Issue.record("expected a refusal")
    } catch let error as TextEncodingError {
      #expect(error.description.contains("U+20AC at character 3"))
    }
  }

  @Test func profileTellsASCIIFromLatin1FromTheRest() throws {
    func profile(_ bytes: Data) throws -> [Bool] {
      let profile = try TextProfile(utf8: .data(bytes))
      return [profile.isValidUTF8, profile.isASCII, profile.fitsLatin1]
    }
    #expect(try profile(Data("plain".utf8)) == [true, true, true])
    #expect(try profile(Data("héllo".utf8)) == [true, false, true])
    #expect(try profile(Data("5 €".utf8)) == [true, false, false])
    #expect(try profile(Data([0xFF])) == [false, false, false])
  }

  /// A text in a file converts into a file of the item's spool, removed with the item; the
  /// same text of a concealed item stays in memory.
  @Test func largeConversionsGoToTheItemsSpoolAndLeaveWithIt() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "transcoder-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = String(repeating: "line of text é € 🙂\n", count: 100_000)
    let source = directory.appendingPathComponent("source.txt")
    try Data(text.utf8).write(to: source)
    let converters = ConverterRegistry()
    converters.spoolParent = directory.path
    var item: PasteboardItem? = PasteboardItem(
      representations: [.file(source, type: .utf8PlainText)], converters: converters)
    let payload = try await item!.payload(for: .utf16PlainText)
    guard case .file(let url) = payload else {
      Issue.record("expected a spool file, got \(payload)")
      return
    }
    #expect(url.path.hasPrefix(directory.path + "/"))
    #expect(try Data(contentsOf: url) == Data(utf16LittleEndian(text)))
    item = nil
    #expect(!FileManager.default.fileExists(atPath: url.path), "the conversion goes with its item")

    let concealed = PasteboardItem(
      representations: [.file(source, type: .utf8PlainText)], options: .concealed,
      converters: converters)
    guard case .data(let bytes) = try await concealed.payload(for: .utf16PlainText) else {
      Issue.record("a concealed item's conversion never touches the disk")
      return
    }
    #expect(bytes == Data(utf16LittleEndian(text)))
  }
}

/// Runs `bytes` through a ``TextTranscoder`` in chunks of `size`, as a file is read.
func transcodeInChunks(
  _ bytes: [UInt8], _ input: TextTranscoder.Input, _ output: TextTranscoder.Output, chunk size: Int
) throws -> [UInt8] {
  var transcoder = TextTranscoder(from: input, to: output)
  var result: [UInt8] = []
  var start = 0
  while start < bytes.count {
    let end = min(start + size, bytes.count)
    try bytes[start..<end].withUnsafeBytes {
      try transcoder.feed($0) { result.append(contentsOf: $0) }
    }
    start = end
  }
  try transcoder.finish { result.append(contentsOf: $0) }
  return result
}
