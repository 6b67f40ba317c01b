import SelectionBackend
import X11Selections

extension BrokerDaemon {
  /// Opens the display server the broker bridges: the X display `name`.
  ///
  /// - Parameters:
  ///   - servingStepTimeout: How long Ferry, as an owner, waits for each step of a
  ///     requestor's transfer.
  static func openDisplay(_ name: String, servingStepTimeout: Duration) async throws(BackendError)
    -> any SelectionBackend
  {
    let backend = try X11SelectionBackend(displayName: name)
    await backend.display.setServingStepTimeout(servingStepTimeout)
    return backend
  }
}
