import SelectionBackendCore
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

  /// Writes the owner's UTF-8 text to `descriptor` on the calling thread, as wl-paste does:
  /// the common paste without a broker.
  ///
  /// - Returns: `false`, having written nothing, when the owner offers no UTF-8 text; `nil`,
  ///   having written nothing, when the compositor cannot be used and the X display is named
  ///   too (``hasFallback``: GNOME's Mutter, which has no data-control).
  /// - Throws: ``CommandFailure``: status 1 when nobody owns the selection, 3 when there is
  ///   no compositor, 4 on a timeout.
  static func pasteWaylandText(_ role: SelectionRole, stepTimeout: Duration, to descriptor: Int32)
    throws -> Bool?
  {
    do {
      return try WaylandTextPaste.paste(role, socket: nil, stepTimeout: stepTimeout, to: descriptor)
    } catch .cannotConnect where hasFallback {
      return nil
    } catch {
      throw DirectSelection.failure(error, selection: role)
    }
  }
}
