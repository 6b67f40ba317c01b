import Logging
import SelectionBackend

/// The display servers a broker bridges.
enum DisplayKind: String, Sendable, Hashable {
  case x11 = "X11"
  case wayland = "Wayland"
}

/// A display server the broker opened: which kind, its name, and the backend.
struct OpenedBackend: Sendable {
  var kind: DisplayKind
  var display: String
  var backend: any SelectionBackend
}

extension BrokerDaemon {
  /// Opens the display servers the configuration names: Wayland when `WAYLAND_DISPLAY` is
  /// set, X11 when `DISPLAY` is (both under XWayland, bridged to each other through the
  /// pasteboards), none to run headless.
  ///
  /// An X display that cannot be opened is an error, as it always was. A Wayland compositor
  /// without the data-control protocol (GNOME, weston) is one line in the log: the broker goes
  /// on with X11 through XWayland, or headless.
  static func openBackends(_ configuration: Configuration, logger: Logger) async throws
    -> [OpenedBackend]
  {
    var opened: [OpenedBackend] = []
    if let name = configuration.waylandDisplay, !name.isEmpty {
      do {
        opened.append(
          OpenedBackend(
            kind: .wayland, display: name,
            backend: try openWayland(name, servingStepTimeout: configuration.servingStepTimeout)))
      } catch {
        logger.notice("not bridging Wayland: \(error)")
      }
    }
    if let name = configuration.displayName, !name.isEmpty {
      do {
        opened.append(
          OpenedBackend(
            kind: .x11, display: name,
            backend: try await openDisplay(
              name, servingStepTimeout: configuration.servingStepTimeout)))
      } catch {
        opened.forEach { $0.backend.close() }
        throw BrokerDaemonError.display("\(error)")
      }
    }
    if opened.isEmpty { logger.notice("no display: running headless, serving the socket only") }
    return opened
  }
}
