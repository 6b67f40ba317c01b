import X11Selections

/// The X selection a pasteboard is published on.
public enum SelectionName {
  /// `general` → `CLIPBOARD`, `primary` → `PRIMARY`; other pasteboards have no selection.
  public static func forPasteboard(_ name: String) -> Selection? {
    switch name {
    case "general", "clipboard": .clipboard
    case "primary": .primary
    case "secondary": .secondary
    default: nil
    }
  }

  /// Whether `name` is a usable pasteboard name: letters, digits, `-`, `_` and `.`.
  public static func isValidPasteboard(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 64
      && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
  }
}
