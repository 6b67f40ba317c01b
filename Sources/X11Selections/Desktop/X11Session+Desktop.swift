import X11Core

/// What the session learned of the desktop, asked once per connection (and per window).
struct DesktopFacts {
  /// The window manager's name, once one announced itself.
  var windowManager: String?
  /// Whether each window asked about is Mutter's selection window.
  var mutterSelectionWindows: [XWindow: Bool] = [:]
}

extension X11Session {
  /// The window manager's name (`Mutter`, `KWin`), asked until one announces itself (a
  /// broker may connect before the manager has), then kept.
  var windowManagerName: String? {
    if let known = desktop.windowManager { return known }
    let name = connection.windowManagerName()
    if let name { desktop.windowManager = name }
    return name
  }

  /// Whether `window` is the window Mutter owns selections with for Wayland programs and its
  /// own clipboard manager (``MutterSelectionBridge``): the manager is Mutter and the window
  /// has its selection window's shape. Asked once per window; `false` on any other desktop,
  /// at the cost of one look at the manager's name.
  func isMutterSelectionWindow(_ window: XWindow) -> Bool {
    guard window != .none, MutterSelectionBridge.isMutter(windowManager: windowManagerName) else {
      return false
    }
    if let known = desktop.mutterSelectionWindows[window] { return known }
    let isSelectionWindow =
      connection.shape(of: window).map(MutterSelectionBridge.isSelectionWindow)
      ?? false
    if desktop.mutterSelectionWindows.count > 64 { desktop.mutterSelectionWindows.removeAll() }
    desktop.mutterSelectionWindows[window] = isSelectionWindow
    return isSelectionWindow
  }
}
