import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// KDE Plasma's compositor for interop tests: KWin 5.27 on its virtual backend, with
/// data-control (wlr, version 2) and a rootless Xwayland.
///
/// `dbus-run-session -- kwin_wayland --virtual --no-lockscreen --socket ferry-kwin --xwayland
/// --xwayland-display :N --xwayland-fd 3 --xwayland-fd 4 KEEPER`, where `:N` is a display of
/// this test process's range whose sockets the session made (``XDisplaySockets``). The binary
/// run is a copy of `/usr/bin/kwin_wayland` in the session's directory: the installed one
/// carries a file capability (`cap_sys_resource=ep`) that these sandboxes refuse to exec, and
/// the copy keeps the name `kwin_wayland`, which KWin's Qt platform plugin checks. KWin
/// exports `WAYLAND_DISPLAY` and `DISPLAY` to KEEPER, which it starts detached, and keeps
/// running when KEEPER ends: ``stop()`` ends it.
///
/// What KWin 5.27 does that tests meet:
/// - Through data-control it gives no primary selection: `wl-copy --primary` fails ("The
///   compositor does not seem to support primary selection").
/// - It bridges the clipboard between Wayland and Xwayland only while an X window is active:
///   ``activeXWindow()`` maps one.
/// - The seat has a keyboard and no pointer; a GTK 4 copy with serial 0 is taken.
public final class KWinSession: DesktopSession {
  public static let compositorName = "KWin"

  public let directory: String
  public let socketName: String
  public let xDisplay: String
  public let xAuthority: String?
  public let sessionBus: String?
  private let sockets: XDisplaySockets
  private let compositor: DesktopCompositor
  private let stopped = TrackedMutex(false)

  public var processIdentifier: Int32 { compositor.process.processIdentifier }
  public var startup: Duration { compositor.startup }
  public var log: String { compositor.log }

  public static let sessions = DesktopSessionCache<KWinSession>()

  public static func start() throws -> KWinSession { try KWinSession() }

  public func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    compositor.end()
    sockets.remove()
    try? FileManager.default.removeItem(atPath: directory)
    RunningDesktopSessions.remove(self)
  }

  /// Maps an X window (`xmessage`) on the Xwayland and waits until KWin has made it the active
  /// window (`xdotool getactivewindow`): KWin 5.27 bridges the clipboard only while it is.
  /// Terminate the peer to close the window.
  ///
  /// - Throws: ``PeerUnavailable`` when xmessage (x11-utils) or xdotool is not installed, or
  ///   ``DesktopSessionError`` when the window is not active within 20 s.
  public func activeXWindow() async throws -> PeerProcess {
    try Peers.require("xdotool")
    guard Peers.path(of: "xmessage") != nil else {
      throw PeerUnavailable(program: "xmessage (x11-utils)")
    }
    let title = "ferry-focus-\(UUID().uuidString.prefix(8))"
    let window = try await peer(["xmessage", "-title", title, "an active X window"])
    var last: PeerProcess.Result?
    let active = await Deadline.wait(for: .seconds(20)) {
      last = try? await run(["xdotool", "getactivewindow", "getwindowname"], timeout: .seconds(5))
      return last?.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == title
        || !window.process.isRunning
    }
    guard active, window.process.isRunning else {
      let ended = await window.stopped()
      throw DesktopSessionError(
        message:
          "KWin did not make the X window \(title) active within 20 s (active: "
          + "\(last?.stdoutText ?? "") \(last?.stderrText ?? ""); xmessage: "
          + "\(ended.stderrText)); its log:\n\(log)")
    }
    return window
  }

  private init() throws {
    guard let installed = Peers.path(of: "kwin_wayland") else {
      throw PeerUnavailable(program: "kwin_wayland (kwin-wayland)")
    }
    guard let dbus = Peers.path(of: "dbus-run-session") else {
      throw PeerUnavailable(program: "dbus-run-session (dbus)")
    }
    let directory = try DesktopCompositor.makeDirectory("kwin")
    var started = false
    defer { if !started { try? FileManager.default.removeItem(atPath: directory) } }
    let kwin = try Self.copyWithoutCapabilities(installed, into: directory)
    let sockets = try XDisplaySockets.make()
    defer { if !started { sockets.remove() } }
    let socketName = "ferry-kwin"
    let compositor: DesktopCompositor
    do {
      // The compositor's copies of the sockets stay open in it; this process's go.
      defer { sockets.closeDescriptors() }
      compositor = try DesktopCompositor(
        directory: directory, dbusRunSession: dbus,
        arguments: [
          kwin, "--virtual", "--no-lockscreen", "--socket", socketName, "--xwayland",
          "--xwayland-display", sockets.name, "--xwayland-fd", "3", "--xwayland-fd", "4",
          "\(directory)/keeper",
        ],
        environment: DesktopCompositor.environment(in: directory, [:]),
        passing: [sockets.pathSocket, sockets.abstractSocket], detachesItsCommand: true)
    }
    let exported = compositor.exported
    guard exported["WAYLAND_DISPLAY"] == socketName, exported["DISPLAY"] == sockets.name else {
      compositor.end()
      throw DesktopSessionError(
        message:
          "kwin_wayland gave its command WAYLAND_DISPLAY \(exported["WAYLAND_DISPLAY"] ?? "none")"
          + " and DISPLAY \(exported["DISPLAY"] ?? "none"), not \(socketName) and \(sockets.name)")
    }
    self.directory = directory
    self.socketName = socketName
    self.xDisplay = sockets.name
    self.xAuthority = exported["XAUTHORITY"].flatMap { $0.isEmpty ? nil : $0 }
    self.sessionBus = exported["DBUS_SESSION_BUS_ADDRESS"]
    self.sockets = sockets
    self.compositor = compositor
    do {
      try waitUntilServing(compositor)
    } catch {
      compositor.end()
      throw error
    }
    started = true
    RunningDesktopSessions.add(self)
  }

  /// A copy of the binary at `path` as `bin/kwin_wayland` in `directory`: its bytes only,
  /// without the extended attribute that holds the file capability.
  private static func copyWithoutCapabilities(_ path: String, into directory: String) throws
    -> String
  {
    let bin = "\(directory)/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
    let copy = "\(bin)/kwin_wayland"
    try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: copy))
    guard chmod(copy, 0o755) == 0 else {
      throw DesktopSessionError(message: "chmod \(copy): \(String(cString: strerror(errno)))")
    }
    return copy
  }
}
