import FerryProtocol
import Pasteboard

extension BrokerRequestHandler {
  /// `status`: the daemon's figures, every pasteboard it names and every one used through the
  /// socket (each cut to its share of a frame), and the history's figures.
  func status() async -> StatusResponse {
    let status = await configuration.status.status()
    var names = status.pasteboards
    for name in state.usedPasteboards where !names.contains(name) { names.append(name) }
    let budget = PasteboardState.budget(sharing: names.count)
    let boards = names.map {
      state(of: configuration.pasteboard($0)).fitting(within: budget)
    }
    let (seconds, attoseconds) = status.uptime.components
    return StatusResponse(
      version: status.version, pid: status.pid,
      uptime: Double(seconds) + Double(attoseconds) / 1e18, display: status.display,
      x11Bridged: status.x11Bridged, clipboardManager: status.clipboardManager,
      socket: configuration.location.path, pasteboards: boards,
      history: await historyStatus(problem: status.historyProblem), wayland: status.wayland,
      displays: status.displays, sync: state.syncReports.links)
  }
}
