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

  /// Whether a display of a later row than the first is named too: where the first cannot
  /// be used (a Wayland compositor without data-control: GNOME's Mutter), the tools use it
  /// (its Xwayland, which Mutter bridges to every Wayland program), as GPaste and CopyQ do.
  static var hasFallback: Bool {
    DisplayServerTable.standard.dropFirst().contains { $0.display(in: environment) != nil }
      && chosen?.kind.environmentVariable == DisplayServerTable.standard.first?.environmentVariable
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
  ///
  /// A Wayland compositor that cannot be used (no data-control: GNOME's Mutter) gives way to
  /// the X display when `DISPLAY` is set too (``hasFallback``); then the X display's failure
  /// is the one told when it does not open either, as on the text paste's fast path.
  static func connect(displayName: String?) throws(BackendError) -> any SelectionBackend {
    guard isWayland else { return try connectX11(displayName: displayName) }
    do {
      return try connectWayland(nil)
    } catch .cannotConnect where hasFallback {
      return try connectX11(displayName: displayName)
    }
  }
}
