/// The name of an X selection; the raw value is the selection atom's name.
///
/// ```swift
/// try await display.own(.clipboard, item: item)              // what Ctrl+V pastes
/// let text = try await display.readText(.primary)            // what middle-click pastes
/// let custom = Selection(rawValue: "_MY_APP_SELECTION")      // any other atom
/// ```
///
/// ICCCM §2.6.1, the selections everyone uses:
/// https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html#use_of_selection_atoms
public struct Selection: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The selection atom's name (`CLIPBOARD`).
  public let rawValue: String

  /// Names a selection by its atom's name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Names a selection by a literal atom name.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// The atom's name, as messages print it.
  public var description: String { rawValue }

  /// `CLIPBOARD`: what an explicit copy puts and paste takes.
  public static let clipboard: Selection = "CLIPBOARD"
  /// `PRIMARY`: the text last selected, pasted with the middle button. The corresponding
  /// Xlib constant is `XA_PRIMARY`.
  public static let primary: Selection = "PRIMARY"
  /// `SECONDARY`: the rarely used second selection. The corresponding Xlib constant is
  /// `XA_SECONDARY`.
  public static let secondary: Selection = "SECONDARY"
  /// `XdndSelection`: the data of the drag in progress (XDND).
  public static let xdnd: Selection = "XdndSelection"
  /// `CLIPBOARD_MANAGER`: owned by the clipboard manager, which keeps what applications
  /// copied after they exit.
  public static let clipboardManager: Selection = "CLIPBOARD_MANAGER"
}
