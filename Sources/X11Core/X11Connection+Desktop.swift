internal import CX11

/// What the connection can learn of the desktop around the X server: the window manager's
/// name, whether the server is a Wayland compositor's Xwayland, and the shape of a window.
extension X11Connection {
  /// A window's place, size and kind, as `XGetWindowAttributes` reports them.
  public struct WindowShape: Sendable, Equatable {
    /// The position relative to its parent.
    public var x: Int
    /// The position relative to its parent.
    public var y: Int
    /// The size, without the border.
    public var width: Int
    /// The size, without the border.
    public var height: Int
    /// Whether the window is `InputOnly`: it has no pixels, only a place for input.
    public var isInputOnly: Bool
    /// Whether the window manager leaves it alone (`override_redirect`).
    public var isOverrideRedirect: Bool

    /// Creates a shape.
    public init(
      x: Int, y: Int, width: Int, height: Int, isInputOnly: Bool, isOverrideRedirect: Bool
    ) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
      self.isInputOnly = isInputOnly
      self.isOverrideRedirect = isOverrideRedirect
    }
  }

  /// `window`'s shape, or `nil` when it does not exist (its `BadWindow` dropped).
  public func shape(of window: XWindow) -> WindowShape? {
    var attributes = XWindowAttributes()
    let status = XGetWindowAttributes(display, Window(window.rawValue), &attributes)
    guard status != 0 else {
      _ = takeErrors()
      return nil
    }
    return WindowShape(
      x: Int(attributes.x), y: Int(attributes.y), width: Int(attributes.width),
      height: Int(attributes.height), isInputOnly: attributes.class == InputOnly,
      isOverrideRedirect: attributes.override_redirect != 0)
  }

  /// The window manager's own name, as it announces itself (EWMH
  /// `_NET_SUPPORTING_WM_CHECK`, then that window's `_NET_WM_NAME`): `Mutter`, `GNOME Shell`,
  /// `KWin`; `nil` when no manager announces one.
  public func windowManagerName() -> String? {
    let check = property(of: root, atom("_NET_SUPPORTING_WM_CHECK"), delete: false)
    guard let window = check?.values.first, window != 0 else { return nil }
    let name = property(
      of: XWindow(rawValue: window), atom("_NET_WM_NAME"), delete: false)
    _ = takeErrors()  // a check window that is gone
    guard let name, name.format == 8, !name.bytes.isEmpty else { return nil }
    return String(decoding: name.bytes, as: UTF8.self)
  }

  /// Whether the server may be Xwayland, the X server of a Wayland compositor: it has interned
  /// `_XWAYLAND_ALLOW_COMMITS`, its property for the compositor (every Xwayland since 1.20
  /// does, at start). Mutter interns it on Xorg too, so a `true` needs a Wayland session
  /// beside it to mean Xwayland. Asked without interning it.
  public var isXwayland: Bool {
    XInternAtom(display, "_XWAYLAND_ALLOW_COMMITS", 1) != 0
  }
}
