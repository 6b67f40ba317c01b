/// What a UTF-8 text holds, found in one pass that reads it a chunk at a time: whether it is
/// valid, ASCII, or fits Latin-1 — answered without converting the text (plain text of no
/// declared encoding is read as UTF-8 only when it is valid UTF-8).
///
/// ```swift
/// let profile = try TextProfile(utf8: try await item.payload(for: .utf8PlainText))
/// profile.fitsLatin1   // the strict Latin-1 conversion will succeed
/// ```
public struct TextProfile: Sendable, Equatable {
  /// Whether the bytes are valid UTF-8.
  public var isValidUTF8: Bool
  /// Whether the text is valid and every character is below U+0080.
  public var isASCII: Bool
  /// Whether the text is valid and every character is at most U+00FF.
  public var fitsLatin1: Bool

  /// Reads `payload` as UTF-8.
  ///
  /// - Throws: ``PasteboardError/io(_:)`` when a file payload cannot be read.
  public init(utf8 payload: PasteboardPayload) throws {
    var transcoder = TextTranscoder(from: .utf8, to: .none)
    let ignore: (UnsafeRawBufferPointer) -> Void = { _ in }
    do {
      try payload.forEachChunk { try transcoder.feed($0, ignore) }
      try transcoder.finish(ignore)
    } catch is TextEncodingError {
      transcoder.release()
      (isValidUTF8, isASCII, fitsLatin1) = (false, false, false)
      return
    }
    isValidUTF8 = true
    isASCII = transcoder.largestScalar < 0x80
    fitsLatin1 = transcoder.largestScalar <= 0xFF
  }
}
