/// What a selection is for, named the same on every display server.
///
/// X11 has a selection per role (`CLIPBOARD`, `PRIMARY`, `SECONDARY`, `XdndSelection`);
/// Wayland's data-control has the first two. A backend that lacks a role says so with
/// ``BackendError/unsupported(_:)``.
public enum SelectionRole: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The clipboard: what Copy and Paste use.
  case clipboard
  /// The primary selection: what is selected, pasted with the middle button.
  case primary
  /// X11's secondary selection, which few programs use.
  case secondary
  /// The data of a drag in progress.
  case drag

  /// The role's name, as people read it in messages.
  public var description: String { rawValue.uppercased() }
}
