import SelectionBackend

/// The display server the command-line tools talk to when no broker runs: the Wayland
/// compositor when `WAYLAND_DISPLAY` is set (as wl-clipboard does: under XWayland the
/// Wayland selection is the one every program sees), else the X display.
enum DisplayServer {
  /// Whether a Wayland compositor is named in the environment.
  static var isWayland: Bool { !(environmentVariable("WAYLAND_DISPLAY") ?? "").isEmpty }

  /// Whether any display server is named in the environment.
  static var isAvailable: Bool { isWayland || !(environmentVariable("DISPLAY") ?? "").isEmpty }

  /// What to tell people when neither is.
  static let noDisplay = "no display (neither WAYLAND_DISPLAY nor DISPLAY is set)"

  /// Connects to the display server the environment names: Wayland, or the X display
  /// `displayName` (`nil`: `$DISPLAY`).
  ///
  /// - Throws: ``BackendError/cannotConnect(_:)``.
  static func connect(displayName: String?) throws(BackendError) -> any SelectionBackend {
    if isWayland { return try connectWayland(nil) }
    return try connectX11(displayName: displayName)
  }
}
