internal import CX11

/// Creating, describing, mapping and destroying windows.
extension X11Connection {
  /// The default screen's number.
  var screen: Int32 { XDefaultScreen(display) }

  /// The root window's size.
  public var screenSize: (width: Int, height: Int) {
    (Int(XDisplayWidth(display, screen)), Int(XDisplayHeight(display, screen)))
  }

  /// A 1×1 unmapped window that receives property changes: the owner of selections and the
  /// target of conversions.
  public func createUtilityWindow() -> XWindow {
    let window = XCreateSimpleWindow(display, Window(root.rawValue), -10, -10, 1, 1, 0, 0, 0)
    XSelectInput(display, window, PropertyChangeMask | StructureNotifyMask)
    return XWindow(rawValue: UInt(window))
  }

  /// Creates an unmapped top-level window: white, with a black border, selecting `eventMask`.
  public func createTopLevelWindow(
    x: Int, y: Int, width: Int, height: Int, eventMask: XWindow.EventMask
  ) -> XWindow {
    let window = XCreateSimpleWindow(
      display, Window(root.rawValue), Int32(x), Int32(y), UInt32(max(width, 1)),
      UInt32(max(height, 1)), 1,
      XBlackPixel(display, screen), XWhitePixel(display, screen))
    XSelectInput(display, window, eventMask.rawValue)
    return XWindow(rawValue: UInt(window))
  }

  /// Selects events on a window (of this client, or per-client on another's, so it does not
  /// disturb theirs).
  public func selectInput(_ window: XWindow, mask: XWindow.EventMask) {
    XSelectInput(display, Window(window.rawValue), mask.rawValue)
  }

  /// Sets `WM_PROTOCOLS` of a top-level window: the window-manager messages it takes
  /// (`WM_DELETE_WINDOW`).
  ///
  /// ICCCM §4.1.2.7: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html#wm_protocols_property
  public func setWMProtocols(_ window: XWindow, _ protocols: [XAtom]) {
    var atoms = protocols.map { Atom($0.rawValue) }
    XSetWMProtocols(display, Window(window.rawValue), &atoms, Int32(atoms.count))
  }

  /// Sets `WM_NORMAL_HINTS` of a top-level window: its position and size, chosen by the
  /// user (`USPosition`, `USSize`: managers honour them) or by the program.
  ///
  /// ICCCM §4.1.2.3: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html#wm_normal_hints_property
  public func setNormalHints(
    _ window: XWindow, x: Int, y: Int, width: Int, height: Int, userPlaced: Bool
  ) {
    guard let hints = XAllocSizeHints() else { return }
    defer { XFree(hints) }
    hints.pointee.flags = userPlaced ? USPosition | USSize : PPosition | PSize
    hints.pointee.x = Int32(x)
    hints.pointee.y = Int32(y)
    hints.pointee.width = Int32(width)
    hints.pointee.height = Int32(height)
    XSetWMNormalHints(display, Window(window.rawValue), hints)
  }

  /// Maps a window and raises it to the top.
  public func mapWindow(_ window: XWindow) {
    XMapRaised(display, Window(window.rawValue))
  }

  /// Destroys a window of this connection.
  public func destroyWindow(_ window: XWindow) {
    XDestroyWindow(display, Window(window.rawValue))
  }
}
