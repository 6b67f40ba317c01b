import SelectionBackend
import WaylandSelections

extension BrokerDaemon {
  /// Opens the Wayland compositor `name` (a socket name or path) through data-control.
  static func openWayland(_ name: String, servingStepTimeout: Duration) throws(BackendError)
    -> any SelectionBackend
  {
    try WaylandSelectionBackend(socket: name, servingStepTimeout: servingStepTimeout)
  }
}
