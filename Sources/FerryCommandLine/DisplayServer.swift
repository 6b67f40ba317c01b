import DisplayServers
import SelectionBackendCore

/// The display server the command-line tools talk to when no broker runs: the first row of
/// `DisplayServerTable.standard` whose variable the environment sets — the Wayland compositor
/// when `WAYLAND_DISPLAY` is set (as wl-clipboard does: under XWayland the Wayland selection is
/// the one every program sees), else the X display.
enum DisplayServer {
  /// The environment's display variables, as the table names them.
  private static var environment: [String: String] {
    var values: [String: String] = [:]
    for kind in DisplayServerTable.standard {
      values[kind.environmentVariable] = environmentVariable(kind.environmentVariable)
    }
    return values
  }

  /// The row and display the environment names first; `nil` when it names none.
  static var chosen: (kind: DisplayServerKind, display: String)? {
    DisplayServerTable.first(in: environment)
  }

  /// Whether the display server the tools use is a Wayland compositor: its text paste takes
  /// the Wayland fast path (`pasteWaylandText`), an X display's the X11 one.
  static var isWayland: Bool {
    chosen?.kind.environmentVariable == DisplayServerKind.wayland.environmentVariable
  }

  /// Whether any display server is named in the environment.
  static var isAvailable: Bool { chosen != nil }

  /// What to tell people when none is.
  static let noDisplay = "no display (\(DisplayServerTable.nothingNamed()))"

  /// Connects to the display server the environment names: the first of the table's, or for
  /// an X display, `displayName` when given (`ferry paste --display`).
  ///
  /// - Throws: ``BackendError/cannotConnect(_:)``.
  static func connect(displayName: String?) throws(BackendError) -> any SelectionBackend {
    if isWayland { return try connectWayland(nil) }
    return try connectX11(displayName: displayName)
  }
}
