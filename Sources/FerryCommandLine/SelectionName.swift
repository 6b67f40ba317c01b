import NearMiss
import SelectionBackendCore

/// The selection a pasteboard is published on.
public enum SelectionName {
  /// `general` → the clipboard, `primary` → the primary selection; other pasteboards have
  /// no selection.
  public static func forPasteboard(_ name: String) -> SelectionRole? {
    switch name {
    case "general", "clipboard": .clipboard
    case "primary": .primary
    case "secondary": .secondary
    default: nil
    }
  }

  /// The pasteboards every tool knows: the X-bridged ones and Apple's named ones.
  public static let standardPasteboards = [
    "general", "clipboard", "primary", "secondary", "find", "drag", "font", "ruler",
  ]

  /// Checks a pasteboard name from the command line.
  ///
  /// Any name of letters, digits, `-`, `_` and `.` makes a pasteboard of its own (the broker
  /// keeps it, like a tmux buffer), except one a letter or two away from a standard name:
  /// `-pboard genral` is a typo, not a new pasteboard that `pbpaste` would never read.
  ///
  /// - Throws: ``CommandFailure`` (usage) naming the problem and, for a near miss, the name
  ///   meant.
  public static func checkPasteboard(_ name: String) throws {
    guard isValidPasteboard(name) else {
      throw CommandFailure(
        "'\(name)' is not a pasteboard name (letters, digits, '-', '_', '.')", status: .usage)
    }
    let lowered = name.lowercased()
    guard !standardPasteboards.contains(name) else { return }
    // Near misses of the long names only: `draw` or `fine` may well be meant as they are.
    let typed = ["general", "clipboard", "primary", "secondary"]
    if let meant = typed.first(where: { $0 == lowered || NearMiss.distance(lowered, $0) <= 2 }) {
      throw CommandFailure(
        "'\(name)' is not a pasteboard; did you mean '\(meant)'? (a pasteboard of your own needs a name unlike the standard ones)",
        status: .usage)
    }
  }

  /// Whether `name` is a usable pasteboard name: letters, digits, `-`, `_` and `.`.
  public static func isValidPasteboard(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 64
      && name.unicodeScalars.allSatisfy {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "-_.".unicodeScalars.contains($0))
      }
  }
}
