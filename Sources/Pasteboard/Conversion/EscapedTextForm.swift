/// GTK's lenient forms of text for the legacy X targets, which never refuse a text: every
/// character the target's charset holds goes out as is, every other one as a `\u00e9`-style
/// escape (`\U0001f600` past U+FFFF), exactly as a GTK 3 owner serves the same text.
///
/// ```swift
/// try await item.escapedText(.latin1)   // "Gr\xfc\xdfe \u2014 \u65e5\u672c\u8a9e"
/// ```
///
/// The strict Latin-1 conversion (`UTType.latin1PlainText` through ``TextEncodingConverter``)
/// stays for callers that ask for Latin-1 by name: it refuses a text that does not fit.
public enum EscapedTextForm: Sendable, Hashable {
  /// X11 `STRING` as GTK serves it: Latin-1; CR LF, CR and LF become LF; control characters
  /// other than tab and line feed (C0, DEL, C1) are dropped.
  case latin1
  /// `text/plain` as GTK serves it: ASCII; CR LF, CR and LF become CR LF; control
  /// characters are kept.
  case asciiCRLF

  /// The largest character written as itself.
  var largestKept: UInt32 {
    switch self {
    case .latin1: 0xFF
    case .asciiCRLF: 0x7F
    }
  }
}
