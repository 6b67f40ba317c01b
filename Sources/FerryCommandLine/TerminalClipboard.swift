import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Copying through the terminal: an OSC 52 escape sequence written to `/dev/tty` asks the
/// terminal emulator to put text on the clipboard of the machine it runs on. Over SSH, that
/// is the local desktop's clipboard.
///
/// Inside tmux the plain sequence is sent (tmux with `set-clipboard on` keeps it as a buffer
/// and passes it on) and again wrapped for tmux's passthrough (`allow-passthrough on`), so
/// either setting reaches the outer terminal. Inside GNU screen the sequence is cut into
/// pieces screen's DCS buffer takes, each wrapped in a DCS string.
///
/// docs/REMOTE.md lists the terminals' limits; ``defaultLimit`` stays under the smallest
/// common one.
public enum TerminalClipboard {
  /// When OSC 52 is used: `FERRY_OSC52` is `auto` (the default: when there is neither a
  /// display nor a broker), `always`, or `never`.
  public enum Mode: String, Sendable {
    case auto, always, never
  }

  /// The most bytes of text sent: 74,994 bytes are 99,992 in base64, under the 100,000-byte
  /// sequences hterm (ChromeOS, Secure Shell) and tmux's default accept.
  public static let defaultLimit = 74_994

  /// The mode `FERRY_OSC52` asks for.
  ///
  /// - Throws: ``CommandFailure`` (usage) for a value other than auto, always or never.
  public static func mode() throws -> Mode {
    guard let text = environmentVariable("FERRY_OSC52"), !text.isEmpty else { return .auto }
    guard let mode = Mode(rawValue: text.lowercased()) else {
      throw CommandFailure("FERRY_OSC52='\(text)' is not auto, always or never", status: .usage)
    }
    return mode
  }

  /// The bytes to write for `payload` in the multiplexer the environment names.
  ///
  /// - Parameters:
  ///   - payload: The text, as UTF-8.
  ///   - multiplexer: Where the sequence goes through; see ``Multiplexer/current``.
  static func sequence(for payload: some Collection<UInt8>, through multiplexer: Multiplexer)
    -> [UInt8]
  {
    let encoded = Array(Data(payload).base64EncodedString().utf8)
    let plain = Array("\u{1B}]52;c;".utf8) + encoded + [0x07]
    switch multiplexer {
    case .none:
      return plain
    case .tmux:
      // Passthrough: DCS tmux; … ST, with every ESC inside doubled.
      var wrapped = Array("\u{1B}Ptmux;".utf8)
      for byte in plain {
        if byte == 0x1B { wrapped.append(0x1B) }
        wrapped.append(byte)
      }
      wrapped += [0x1B, UInt8(ascii: "\\")]
      return plain + wrapped
    case .screen:
      // screen passes a DCS string's contents on, up to 768 bytes a string.
      var wrapped: [UInt8] = []
      var index = plain.startIndex
      while index < plain.endIndex {
        let end = plain.index(index, offsetBy: 76, limitedBy: plain.endIndex) ?? plain.endIndex
        wrapped += [0x1B, UInt8(ascii: "P")] + plain[index..<end] + [0x1B, UInt8(ascii: "\\")]
        index = end
      }
      return wrapped
    }
  }

  /// The terminal multiplexer between this process and the terminal.
  enum Multiplexer: Equatable {
    case none, tmux, screen

    /// From `TMUX` and `STY` (set inside tmux and screen), or `TERM`.
    static var current: Multiplexer {
      if environmentVariable("TMUX").map({ !$0.isEmpty }) == true { return .tmux }
      if environmentVariable("STY").map({ !$0.isEmpty }) == true { return .screen }
      let term = environmentVariable("TERM") ?? ""
      if term.hasPrefix("tmux") { return .tmux }
      if term.hasPrefix("screen") { return .screen }
      return .none
    }
  }

  /// Whether this process has a terminal to write to.
  static var hasTerminal: Bool {
    let descriptor = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
  }

  /// Sends `text` to the terminal's clipboard.
  ///
  /// - Throws: ``CommandFailure``: `badInput` when `text` is not UTF-8 or is longer than
  ///   ``defaultLimit`` (nothing is sent then); `noDisplayNoBroker` when there is no terminal;
  ///   `io` when writing fails.
  public static func copy(_ text: some Collection<UInt8>) throws {
    guard String(validating: text, as: UTF8.self) != nil else {
      throw CommandFailure(
        "OSC 52 carries text, and the input is not UTF-8 text; nothing was sent to the terminal",
        status: .badInput)
    }
    guard text.count <= defaultLimit else {
      throw CommandFailure(
        "the copy is \(text.count) bytes; terminals take at most \(defaultLimit) through OSC 52, so nothing was sent",
        status: .badInput)
    }
    let descriptor = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw CommandFailure(
        "no display, no broker and no terminal to copy to", status: .noDisplayNoBroker)
    }
    defer { close(descriptor) }
    let bytes = sequence(for: text, through: .current)
    let failure = bytes.withUnsafeBytes { bytes -> Errno? in
      do throws(Errno) {
        try FileDescriptor(rawValue: descriptor).writeAll(from: bytes)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw CommandFailure("cannot write to the terminal: \(failure)", status: .io) }
  }
}
