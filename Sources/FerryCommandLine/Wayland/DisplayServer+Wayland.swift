import SelectionBackend
import WaylandSelections

extension DisplayServer {
  /// Connects to the Wayland compositor `name` (`nil`: `$WAYLAND_DISPLAY`) through
  /// data-control.
  ///
  /// - Throws: `BackendError.cannotConnect(_:)`, one line naming what is missing, also when
  ///   the compositor has no data-control protocol.
  static func connectWayland(_ name: String?) throws(BackendError) -> any SelectionBackend {
    try WaylandSelectionBackend(socket: name)
  }
}
