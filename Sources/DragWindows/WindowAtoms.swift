import X11Selections

/// The atoms a top-level window tells the window manager about itself with, interned in one
/// round trip (none once the connection knows them).
///
/// ICCCM §4.1.2: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html#client_properties
/// EWMH: https://specifications.freedesktop.org/wm-spec/latest/ar01s05.html
struct WindowAtoms {
  /// One atom of the table; the raw value is the atom's name.
  enum Name: String, CaseIterable {
    case wmName = "WM_NAME"
    case wmClass = "WM_CLASS"
    case wmProtocols = "WM_PROTOCOLS"
    case wmDeleteWindow = "WM_DELETE_WINDOW"
    case netWMName = "_NET_WM_NAME"
    case netWMIconName = "_NET_WM_ICON_NAME"
    case netWMPID = "_NET_WM_PID"
    case utf8String = "UTF8_STRING"
    case cardinal = "CARDINAL"
  }

  private let atoms: [Name: XAtom]

  /// Interns the atoms on `connection`; on the X thread.
  init(_ connection: X11Connection) {
    let interned = connection.atoms(Name.allCases.map(\.rawValue))
    atoms = Dictionary(uniqueKeysWithValues: zip(Name.allCases, interned))
  }

  /// The atom named `name`.
  subscript(_ name: Name) -> XAtom { atoms[name]! }
}
