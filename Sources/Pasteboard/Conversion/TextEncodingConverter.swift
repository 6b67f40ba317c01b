import FerrySystem
import FoundationEssentials
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Converts text between UTF-8, Latin-1 (X11 `STRING`) and UTF-16.
///
/// UTF-8 text becomes Latin-1 only when every character fits: text Latin-1 cannot hold is
/// refused, never mangled into `?` — this strict form is for callers that ask for Latin-1
/// by name. X readers of `STRING` and `text/plain` get GTK's lenient form instead
/// (``escapedText(_:as:spool:)``). UTF-16 is written little-endian; the external form starts
/// with a byte-order mark, and either form is read with or without one. Plain text of no
/// declared encoding is read as UTF-8 when it is valid UTF-8 and as Latin-1 otherwise.
///
/// Text is converted a chunk at a time (`TextTranscoder`): a large text, or one in a file,
/// is converted into a file of the item's spool, so a 100 MiB text served as UTF-16 costs
/// its readers a chunk of memory each, not 200 MiB.
///
/// ```swift
/// TextEncodingConverter().outputs(from: .utf8PlainText)
/// // [org.x.string, public.utf16-plain-text, public.utf16-external-plain-text]
/// ```
public struct TextEncodingConverter: PasteboardConverter {
  /// Creates the converter.
  public init() {}

  /// What each encoding converts to.
  public func outputs(from source: UTType) -> [UTType] {
    switch source {
    case .utf8PlainText: [.latin1PlainText, .utf16PlainText, .utf16ExternalPlainText]
    case .latin1PlainText, .utf16PlainText, .utf16ExternalPlainText, .plainText: [.utf8PlainText]
    default: []
    }
  }

  /// The largest input converted in memory; a larger one, or a file, is converted a chunk at a
  /// time into a file of the item's spool when there is one.
  public static let inMemoryLimit = 1 << 20

  /// Re-encodes the text in memory.
  ///
  /// - Throws: ``TextEncodingError`` when the text is not valid in its encoding or does not fit
  ///   the target's.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    try Self.convert(payload, from: source, to: target, spool: nil)
  }

  /// Re-encodes the text a chunk at a time: into memory when the input is small and in memory,
  /// else into a file of `spool`, so that no reader holds the whole text or its conversion.
  ///
  /// - Throws: ``TextEncodingError``, or ``PasteboardError/io(_:)`` when a file cannot be read
  ///   or written.
  public func convert(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType, spool: ConversionSpool
  ) async throws -> PasteboardPayload {
    try await Self.offThePoolWhenLarge(payload) {
      try Self.convert(payload, from: source, to: target, spool: spool)
    }
  }

  /// Runs `conversion` at once when `payload` is small and in memory; otherwise — a file's
  /// worth of text, read and written a chunk at a time, seconds under I/O load — on a thread
  /// of its own, so that it holds none of the threads owners answer from
  /// (`ProductionExecutor`, two on a 2-core machine).
  static func offThePoolWhenLarge(
    _ payload: PasteboardPayload, _ conversion: @escaping @Sendable () throws -> PasteboardPayload
  ) async throws -> PasteboardPayload {
    if fitsInMemory(payload) { return try conversion() }
    return try await DetachedThread.run(name: "ferry-convert", conversion)
  }

  static func convert(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType, spool: ConversionSpool?
  ) throws -> PasteboardPayload {
    let output: TextTranscoder.Output
    switch target {
    case .utf8PlainText: output = .utf8
    case .latin1PlainText: output = .latin1
    case .utf16PlainText: output = .utf16LittleEndian(byteOrderMark: false)
    case .utf16ExternalPlainText: output = .utf16LittleEndian(byteOrderMark: true)
    default: throw TextEncodingError.unsupported(target)
    }
    let input: TextTranscoder.Input
    switch source {
    case .utf8PlainText: input = .utf8
    case .latin1PlainText: input = .latin1
    case .plainText: input = try TextProfile(utf8: payload).isValidUTF8 ? .utf8 : .latin1
    default: input = .utf16
    }
    // Plain text that is valid UTF-8 already is its UTF-8 form.
    if input == .utf8, output == .utf8 { return payload }
    return try transcode(payload, TextTranscoder(from: input, to: output), spool: spool)
  }

  /// Writes UTF-8 text in GTK's lenient `form` of a legacy X target, a chunk at a time like
  /// the other conversions. Never refuses a valid text.
  ///
  /// - Throws: ``TextEncodingError/invalid(_:)`` when the text is not valid UTF-8, or
  ///   ``PasteboardError/io(_:)`` when a file cannot be read or written.
  public static func escapedText(
    _ utf8: PasteboardPayload, as form: EscapedTextForm, spool: ConversionSpool?
  ) throws -> PasteboardPayload {
    try transcode(utf8, TextTranscoder(from: .utf8, to: .escaped(form)), spool: spool)
  }

  /// Runs `transcoder` over `payload`: into memory when the input is small and in memory,
  /// else into a file of `spool`.
  private static func transcode(
    _ payload: PasteboardPayload, _ transcoder: TextTranscoder, spool: ConversionSpool?
  ) throws -> PasteboardPayload {
    var transcoder = transcoder
    defer { transcoder.release() }
    if let spool, !Self.fitsInMemory(payload) {
      let (url, descriptor) = try spool.makeFile()
      defer { close(descriptor) }
      let write: (UnsafeRawBufferPointer) throws -> Void = {
        try FileIO.writeAll($0, to: descriptor)
      }
      do {
        try payload.forEachChunk { try transcoder.feed($0, write) }
        try transcoder.finish(write)
      } catch {
        unlink(url.path)
        throw error
      }
      return .file(url)
    }
    var bytes = Data()
    let append: (UnsafeRawBufferPointer) -> Void = { bytes.append(contentsOf: $0) }
    try payload.forEachChunk { try transcoder.feed($0, append) }
    try transcoder.finish(append)
    return .data(bytes)
  }

  private static func fitsInMemory(_ payload: PasteboardPayload) -> Bool {
    if case .data(let data) = payload { return data.count <= inMemoryLimit }
    return false
  }
}

/// Why text could not be re-encoded.
public enum TextEncodingError: Error, CustomStringConvertible, Sendable {
  /// The text has a character the Latin-1 encoding cannot hold.
  case notLatin1(scalar: Unicode.Scalar, offset: Int)
  /// The bytes are not valid in the named encoding.
  case invalid(String)
  /// The converter does not produce the type.
  case unsupported(UTType)

  /// One line naming the problem.
  public var description: String {
    switch self {
    case .notLatin1(let scalar, let offset):
      let code = String(scalar.value, radix: 16, uppercase: true)
      return
        "the text has characters Latin-1 cannot hold (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) at character \(offset))"
    case .invalid(let encoding):
      return "the bytes are not valid \(encoding)"
    case .unsupported(let type):
      return "no text encoding for \(type.identifier)"
    }
  }
}
