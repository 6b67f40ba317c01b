internal import CX11
import X11Selections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The Xlib calls of the windows people see: top-level windows, their names for the window
/// manager, and text. Run on the X thread only, as every call of ``X11Connection``.
extension X11Connection {
  private var screen: Int32 { XDefaultScreen(display) }

  /// The root window's size.
  var screenSize: (width: Int, height: Int) {
    (Int(XDisplayWidth(display, screen)), Int(XDisplayHeight(display, screen)))
  }

  // MARK: Top-level windows

  /// Creates an unmapped top-level window: white, with a black border, selecting `eventMask`.
  func createTopLevelWindow(
    x: Int, y: Int, width: Int, height: Int, eventMask: XWindow.EventMask
  ) -> XWindow {
    let window = XCreateSimpleWindow(
      display, Window(root.rawValue), Int32(x), Int32(y), UInt32(max(width, 1)),
      UInt32(max(height, 1)), 1,
      XBlackPixel(display, screen), XWhitePixel(display, screen))
    XSelectInput(display, window, eventMask.rawValue)
    return XWindow(rawValue: UInt(window))
  }

  /// Names a top-level window for people and window managers: `WM_NAME` and `_NET_WM_NAME`
  /// (the title), `WM_CLASS`, `_NET_WM_PID`, `WM_PROTOCOLS` with `WM_DELETE_WINDOW`, and
  /// `WM_NORMAL_HINTS` saying the user chose the position and size, so that managers honour
  /// `--geometry`.
  ///
  /// ICCCM §4.1.2: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html#client_properties
  /// EWMH: https://specifications.freedesktop.org/wm-spec/latest/ar01s05.html
  func describeTopLevelWindow(
    _ window: XWindow, atoms: WindowAtoms, title: String, className: String, x: Int, y: Int,
    width: Int, height: Int, userPlaced: Bool
  ) {
    let handle = Window(window.rawValue)
    let latin1 = Array(
      title.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
    latin1.withUnsafeBytes { setProperty(of: window, atoms.wmName, type: .string, bytes: $0) }
    Array(title.utf8).withUnsafeBytes {
      setProperty(of: window, atoms.netWMName, type: atoms.utf8String, bytes: $0)
    }
    Array(title.utf8).withUnsafeBytes {
      setProperty(of: window, atoms.netWMIconName, type: atoms.utf8String, bytes: $0)
    }
    // WM_CLASS is two NUL-terminated strings: the instance name, then the class.
    let wmClass = Array("\(className)\0\(className)\0".utf8)
    wmClass.withUnsafeBytes { setProperty(of: window, atoms.wmClass, type: .string, bytes: $0) }
    setProperty(of: window, atoms.netWMPID, type: atoms.cardinal, values: [UInt(getpid())])
    var protocols = [Atom(atoms.wmDeleteWindow.rawValue)]
    XSetWMProtocols(display, handle, &protocols, 1)
    if let hints = XAllocSizeHints() {
      // The user's geometry when one was given, the program's otherwise.
      hints.pointee.flags = userPlaced ? USPosition | USSize : PPosition | PSize
      hints.pointee.x = Int32(x)
      hints.pointee.y = Int32(y)
      hints.pointee.width = Int32(width)
      hints.pointee.height = Int32(height)
      XSetWMNormalHints(display, handle, hints)
      XFree(hints)
    }
  }

  func mapWindow(_ window: XWindow) {
    XMapRaised(display, Window(window.rawValue))
  }

  // MARK: Text

  /// The default font's metrics, as the default GC draws: ascent, descent, widest character.
  func defaultFontMetrics() -> (ascent: Int, descent: Int, width: Int) {
    let gc = XDefaultGC(display, screen)
    guard let font = XQueryFont(display, XGContextFromGC(gc)) else { return (11, 2, 6) }
    defer { XFreeFontInfo(nil, font, 1) }
    let info = font.pointee
    return (Int(info.ascent), Int(info.descent), max(Int(info.max_bounds.width), 1))
  }

  func clearWindow(_ window: XWindow) {
    XClearWindow(display, Window(window.rawValue))
  }

  /// Draws Latin-1 `bytes` with the default GC and font, baseline at `y`.
  func drawString(_ window: XWindow, x: Int, y: Int, latin1 bytes: [UInt8]) {
    let gc = XDefaultGC(display, screen)
    bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        _ = XDrawString(
          display, Window(window.rawValue), gc, Int32(x), Int32(y), $0.baseAddress, Int32($0.count))
      }
    }
  }

  /// Outlines a rectangle with the default GC, `thickness` pixels wide (inwards).
  func drawRectangle(_ window: XWindow, x: Int, y: Int, width: Int, height: Int, thickness: Int = 1)
  {
    let gc = XDefaultGC(display, screen)
    for inset in 0..<max(thickness, 1) where width > 2 * inset && height > 2 * inset {
      XDrawRectangle(
        display, Window(window.rawValue), gc, Int32(x + inset), Int32(y + inset),
        UInt32(width - 1 - 2 * inset),
        UInt32(height - 1 - 2 * inset))
    }
  }
}
