import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Waiting until a ``DesktopSession``'s compositor serves: its Wayland socket takes a
/// connection and its Xwayland answers an X client.
extension DesktopSession {
  /// Waits until the Wayland socket accepts a connection and `xdpyinfo` succeeds on the
  /// Xwayland, 30 s at most for each.
  ///
  /// - Throws: ``PeerUnavailable`` when xdpyinfo (x11-utils) is not installed, or
  ///   ``DesktopSessionError`` when the compositor ends or does not answer.
  @available(*, noasync, message: "blocks while the compositor starts")
  func waitUntilServing(_ compositor: DesktopCompositor) throws {
    guard Peers.path(of: "xdpyinfo") != nil else {
      throw PeerUnavailable(program: "xdpyinfo (x11-utils)")
    }
    let path = socketPath
    let connected = Deadline.wait(for: .seconds(30)) {
      guard compositor.process.isRunning else { return true }
      guard let socket = try? FileDescriptor.connectedUnixStream(path: path) else { return false }
      try? socket.close()
      return true
    }
    guard connected, compositor.process.isRunning else {
      throw failure("its Wayland socket \(path) took no connection within 30 s", compositor)
    }
    var last: PeerProcess.Result?
    let answered = Deadline.wait(for: .seconds(30)) {
      guard compositor.process.isRunning else { return true }
      last = try? run(["xdpyinfo"], timeout: .seconds(10))
      return last?.status == 0
    }
    guard answered, compositor.process.isRunning else {
      throw failure(
        "its Xwayland \(xDisplay) did not answer xdpyinfo within 30 s (status "
          + "\(last.map { "\($0.status)" } ?? "none"): \(last?.stderrText ?? ""))", compositor)
    }
  }

  private func failure(_ message: String, _ compositor: DesktopCompositor) -> DesktopSessionError {
    let ended = compositor.process.isRunning ? "" : " (it ended)"
    return DesktopSessionError(
      message: "\(Self.compositorName)\(ended): \(message); its log:\n\(compositor.log)")
  }
}
