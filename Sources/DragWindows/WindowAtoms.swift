import X11Selections

/// The atoms a top-level window tells the window manager about itself with, interned in one
/// round trip (none once the connection knows them).
///
/// ICCCM §4.1.2: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html#client_properties
/// EWMH: https://specifications.freedesktop.org/wm-spec/latest/ar01s05.html
struct WindowAtoms {
  static let names = [
    "WM_NAME", "WM_CLASS", "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME",
    "_NET_WM_ICON_NAME", "_NET_WM_PID", "UTF8_STRING", "CARDINAL",
  ]

  let wmName, wmClass, wmProtocols, wmDeleteWindow, netWMName: XAtom
  let netWMIconName, netWMPID, utf8String, cardinal: XAtom

  /// Interns the atoms on `connection`; on the X thread.
  init(_ connection: X11Connection) {
    let atoms = connection.atoms(Self.names)
    (wmName, wmClass, wmProtocols, wmDeleteWindow, netWMName) =
      (atoms[0], atoms[1], atoms[2], atoms[3], atoms[4])
    (netWMIconName, netWMPID, utf8String, cardinal) = (atoms[5], atoms[6], atoms[7], atoms[8])
  }
}
