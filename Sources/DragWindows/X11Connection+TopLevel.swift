import X11Selections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How the windows people see describe themselves to window managers. On the X thread, as
/// every call of ``X11Connection``.
extension X11Connection {
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
    let latin1 = Array(
      title.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
    latin1.withUnsafeBytes { setProperty(of: window, atoms[.wmName], type: .string, bytes: $0) }
    Array(title.utf8).withUnsafeBytes {
      setProperty(of: window, atoms[.netWMName], type: atoms[.utf8String], bytes: $0)
    }
    Array(title.utf8).withUnsafeBytes {
      setProperty(of: window, atoms[.netWMIconName], type: atoms[.utf8String], bytes: $0)
    }
    // WM_CLASS is two NUL-terminated strings: the instance name, then the class.
    let wmClass = Array("\(className)\0\(className)\0".utf8)
    wmClass.withUnsafeBytes { setProperty(of: window, atoms[.wmClass], type: .string, bytes: $0) }
    setProperty(of: window, atoms[.netWMPID], type: atoms[.cardinal], values: [UInt(getpid())])
    setWMProtocols(window, [atoms[.wmDeleteWindow]])
    // The user's geometry when one was given, the program's otherwise.
    setNormalHints(window, x: x, y: y, width: width, height: height, userPlaced: userPlaced)
  }
}
