import FerryProtocol
import Logging
import Pasteboard
import SelectionBackendCore

/// How the daemon bridges one connection to a display server: `general` ↔ `CLIPBOARD` and
/// `primary` ↔ `PRIMARY` bindings, running, and the clipboard-manager role where the display
/// server has one. The same for the connection opened at start and for every one a
/// ``DisplaySupervisor`` makes again.
struct DisplayBridging: Sendable {
  let configuration: BrokerDaemon.Configuration
  let history: BrokerHistory?
  /// Shared by every display's bindings when two or more are bridged (``BridgeEchoes``).
  let echoes: BridgeEchoes?
  let state: DaemonState
  let logger: Logger

  /// Starts the bindings on `backend`; `resuming` when it is a connection made again, whose
  /// bindings serve the pasteboards' copies again (``SelectionBinding/run(resuming:)``).
  ///
  /// - Throws: What taking the clipboard-manager role threw; the bindings are stopped then.
  func bridge(_ backend: any SelectionBackend, resuming: Bool) async throws
    -> DisplaySupervisor.Bridge
  {
    var bridge = DisplaySupervisor.Bridge()
    let general = SelectionBinding(
      pasteboard: .general, role: .clipboard, backend: backend,
      byteBudget: configuration.captureLimit, sources: history?.sources, history: history,
      echoes: echoes, captureStepTimeout: configuration.captureStepTimeout, logger: logger)
    bridge.bindings.append(general)
    bridge.tasks.append(Task { await general.run(resuming: resuming) })
    // PRIMARY changes with every selection drag: record its targets, read its data on request.
    if backend.roles.contains(.primary) {
      let primary = SelectionBinding(
        pasteboard: .primary, role: .primary, backend: backend, byteBudget: 0,
        sources: history?.sources, history: history,
        captureStepTimeout: configuration.captureStepTimeout, logger: logger)
      bridge.bindings.append(primary)
      bridge.tasks.append(Task { await primary.run(resuming: resuming) })
    }
    guard let handOver = backend.clipboardManager else { return bridge }
    let (state, logger) = (state, logger)
    do {
      let manager = try await handOver.becomeClipboardManager(
        save: { request in await general.saveForExitingOwner(request) },
        onLost: {
          state.setManager(false)
          logger.notice("another clipboard manager took the clipboard-manager role")
        })
      state.setManager(manager)
      if !manager {
        logger.notice("another clipboard manager holds the role; not taking it from it")
      }
    } catch {
      bridge.tasks.forEach { $0.cancel() }
      throw error
    }
    return bridge
  }
}
