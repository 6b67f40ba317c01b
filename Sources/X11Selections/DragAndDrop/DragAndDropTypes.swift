import FoundationEssentials
import Pasteboard
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How a drag ended, as the source saw it.
///
/// ```swift
/// switch outcome {
/// case .dropped(let target, let action): print("dropped on \(target) (\(action))")
/// case .targetDidNotAnswer: print("the target hung")
/// default: print(outcome)
/// }
/// ```
public enum DragOutcome: Sendable, Equatable, CustomStringConvertible {
  /// The target took the data and reported success with the action it performed.
  case dropped(target: XWindow, action: DragAction)
  /// The target took the drop and reported failure in `XdndFinished`.
  case failed(target: XWindow)
  /// Released over a target that did not accept the drop.
  case rejected(target: XWindow)
  /// Released over nothing that takes drops.
  case noTarget
  /// Escape was pressed.
  case cancelled
  /// The target stopped answering; `awaiting` names the message (`XdndStatus`,
  /// `XdndFinished`) that never came.
  case targetDidNotAnswer(target: XWindow, awaiting: String)

  /// Whether the target received the data.
  public var isSuccess: Bool {
    if case .dropped = self { return true }
    return false
  }

  /// One line saying what happened.
  public var description: String {
    switch self {
    case .dropped(let target, let action): "dropped on window \(target.hex) (\(action.rawValue))"
    case .failed(let target): "window \(target.hex) took the drop but reported failure"
    case .rejected(let target): "window \(target.hex) did not accept the drop"
    case .noTarget: "released over nothing that takes drops"
    case .cancelled: "cancelled"
    case .targetDidNotAnswer(let target, let message):
      "the drop target (window \(target.hex)) stopped answering: no \(message) in time; the drag was given up"
    }
  }
}

/// What a window that takes XDND drops reports (`DragWindows`' `DropWindow`).
public enum DropEvent: Sendable {
  /// A drag entered the window, offering `types` (X target names, in the source's order).
  case entered(source: XWindow, types: [String])
  /// The drag left without dropping.
  case left(source: XWindow)
  /// Something was dropped and read.
  case dropped(Drop)
  /// Something was dropped, but none of its types could be read.
  case failed(source: XWindow, reason: String)
  /// The window was closed (by the window manager, or by its owner).
  case closed
}

/// One drop, read: every offered type the source converted, in its order.
public struct Drop: Sendable {
  /// One type as received.
  public struct Received: Sendable {
    /// The X target name (`text/uri-list`, `UTF8_STRING`).
    public var target: String
    /// The type it maps to.
    public var type: UTType
    /// The bytes (text as UTF-8, whatever encoding it came in).
    public var data: Data
  }

  /// The window the drag came from (the source's XDND window, which may be hidden).
  public var source: XWindow
  /// Every type the source offered, in its order.
  public var offered: [String]
  /// The types read, in the source's order; types the source refused are missing.
  public var received: [Received]
  /// The action performed.
  public var action: DragAction
  /// The server time of the drop.
  public var time: XTimestamp
  /// The drop as a pasteboard item: one representation per distinct type, in order.
  public var item: PasteboardItem

  /// The URIs of the `text/uri-list`, if any (comments and blank lines dropped).
  public var uris: [String] {
    guard let list = received.first(where: { $0.target == "text/uri-list" }) else { return [] }
    return String(decoding: list.data, as: UTF8.self)
      .split(whereSeparator: \.isNewline)  // "\r\n" is one Character
      .map(String.init)
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }

  /// The dropped text, if any: the first plain-text type received other than the URI list,
  /// decoded (Latin-1 for `STRING`, else UTF-8).
  public var text: String? {
    guard
      let plain = received.first(where: {
        $0.target != "text/uri-list" && $0.type.conforms(to: .plainText)
      })
    else { return nil }
    if plain.target == "STRING" {
      return String(decoding: plain.data.map { UInt16($0) }, as: UTF16.self)
    }
    return String(decoding: plain.data, as: UTF8.self)
  }
}

extension XWindow {
  /// The id in hex, as `xwininfo` prints it.
  var hex: String { "0x" + String(rawValue, radix: 16) }
}
