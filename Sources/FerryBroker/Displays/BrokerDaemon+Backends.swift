import FerryProtocol
import Logging
import SelectionBackendCore

/// A display server the broker opened: its row of the table, its name, and the backend.
struct OpenedBackend: Sendable {
  var kind: DisplayServerKind
  var display: String
  var backend: any SelectionBackend
}

/// What the broker did with each display its environment names: opened it, or why not.
struct OpenedDisplays: Sendable {
  /// The displays opened, in the table's order.
  var opened: [OpenedBackend] = []
  /// The displays named that could not be opened, as status reports them.
  var refused: [DisplayStatus] = []
}

extension BrokerDaemon {
  /// Opens every display server of the configuration's table that its environment names
  /// (with X11 and Wayland both, under XWayland, bridged to each other through the
  /// pasteboards), none to run headless.
  ///
  /// A display of a required kind (X11) that cannot be opened is an error, as it always was;
  /// any other (a Wayland compositor without data-control: GNOME, weston) is one line in the
  /// log and a display status saying why, and the broker goes on with the rest, or headless.
  static func openBackends(_ configuration: Configuration, logger: Logger) async throws
    -> OpenedDisplays
  {
    var displays = OpenedDisplays()
    let options = DisplayServerKind.Options(servingStepTimeout: configuration.servingStepTimeout)
    for kind in configuration.displayServers {
      guard let name = kind.display(in: configuration.environment) else { continue }
      do {
        let backend = try await kind.connect(name, options)
        displays.opened.append(OpenedBackend(kind: kind, display: name, backend: backend))
      } catch {
        guard !kind.isRequired else {
          displays.opened.forEach { $0.backend.close() }
          throw BrokerDaemonError.display("\(error)")
        }
        logger.notice("not bridging \(kind.name): \(error)")
        displays.refused.append(
          DisplayStatus(
            kind: kind.name, name: name, protocol: kind.protocolName, bridged: false,
            problem: "\(error)"))
      }
    }
    if displays.opened.isEmpty {
      logger.notice("no display: running headless, serving the socket only")
    }
    return displays
  }
}
