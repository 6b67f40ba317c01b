import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// GNOME's compositor for interop tests: Mutter 43 nested in a private Xvfb, a Wayland
/// compositor with the Xvfb's keyboard (a headless Mutter has none, and Wayland clients cannot
/// copy there) and its own Xwayland, which Mutter starts at once outside a systemd session.
///
/// `dbus-run-session -- mutter --nested --wayland -- KEEPER` with `DISPLAY` the Xvfb's; Mutter
/// exports `WAYLAND_DISPLAY`, `DISPLAY` (its Xwayland, usually `:0`) and `XAUTHORITY` (a
/// `.mutter-Xwaylandauth.*` file in `XDG_RUNTIME_DIR`) to KEEPER, and exits when KEEPER exits.
///
/// What Mutter does that tests meet:
/// - No data-control protocol: `wl-copy` and `wl-paste` map a surface and take keyboard focus
///   to copy and paste, and `wl-paste --watch` is refused.
/// - Mutter reverses the list of types it hands on (`wl-paste --list-types` after a
///   `wl-copy --type text/html` lists `UTF8_STRING` … `text/html`, the offer's last first).
/// - A selection whose serial is older than the current one's is dropped without a word;
///   GTK 4 sends the serial of the last key press, 0 before any: ``pressKey()`` gives the
///   focused client one.
/// - Mutter's clipboard manager keeps one type of a copy whose owner went and serves it.
public final class MutterSession: DesktopSession {
  public static let compositorName = "Mutter"

  public let directory: String
  public let socketName: String
  public let xDisplay: String
  public let xAuthority: String?
  public let sessionBus: String?
  /// The Xvfb Mutter is nested in (its display is Mutter's host, not a display for peers).
  public let host: XvfbServer
  /// The display Mutter keeps for its own services (`GNOME_SETUP_DISPLAY`), usually `:1`.
  public let setupDisplay: String?
  private let compositor: DesktopCompositor
  private let stopped = TrackedMutex(false)

  public var processIdentifier: Int32 { compositor.process.processIdentifier }
  public var startup: Duration { compositor.startup }
  public var log: String { compositor.log }

  public static let sessions = DesktopSessionCache<MutterSession>()

  public static func start() throws -> MutterSession { try MutterSession() }

  public func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    compositor.end()
    host.stop()
    // Mutter removes its displays' lock files as it exits; after a kill they stay.
    for display in [xDisplay, setupDisplay].compactMap({ $0 }) {
      XDisplaySockets.removeIfStale(display)
    }
    try? FileManager.default.removeItem(atPath: directory)
    RunningDesktopSessions.remove(self)
  }

  /// Presses and releases Shift on Mutter's host display (`xdotool key shift` on the Xvfb):
  /// the focused Wayland client gets a key press and with it a serial newer than the current
  /// selection's, which a GTK 4 copy needs on Mutter.
  ///
  /// - Throws: ``PeerUnavailable`` when xdotool is not installed, or ``DesktopSessionError``.
  @available(*, noasync, message: "blocks a thread of the concurrency pool; await the async form")
  public func pressKey() throws {
    let pressed = try PeerProcess.run(["xdotool", "key", "shift"], display: host.name)
    guard pressed.status == 0 else {
      throw DesktopSessionError(
        message: "xdotool key on \(host.name) failed (\(pressed.status)): \(pressed.stderrText)")
    }
  }

  /// The `async` form of ``pressKey()``.
  public func pressKey() async throws {
    try await DetachedThread.run { try self.pressKey() }
  }

  private init() throws {
    guard let mutter = Peers.path(of: "mutter") else { throw PeerUnavailable(program: "mutter") }
    guard let dbus = Peers.path(of: "dbus-run-session") else {
      throw PeerUnavailable(program: "dbus-run-session (dbus)")
    }
    let host = try XvfbServer.disposable()
    var started = false
    defer { if !started { host.stop() } }
    let directory = try DesktopCompositor.makeDirectory("mutter")
    defer { if !started { try? FileManager.default.removeItem(atPath: directory) } }
    let compositor = try DesktopCompositor(
      directory: directory, dbusRunSession: dbus,
      arguments: [mutter, "--nested", "--wayland", "--", "\(directory)/keeper"],
      environment: DesktopCompositor.environment(
        in: directory, ["DISPLAY": host.name, "GSETTINGS_BACKEND": "memory"]),
      detachesItsCommand: false)
    let exported = compositor.exported
    guard let socketName = exported["WAYLAND_DISPLAY"], let xDisplay = exported["DISPLAY"],
      xDisplay != host.name
    else {
      compositor.end()
      throw DesktopSessionError(
        message: "mutter gave its command no WAYLAND_DISPLAY or DISPLAY of its own: \(exported)")
    }
    self.directory = directory
    self.socketName = socketName
    self.xDisplay = xDisplay
    self.xAuthority = exported["XAUTHORITY"].flatMap { $0.isEmpty ? nil : $0 }
    self.sessionBus = exported["DBUS_SESSION_BUS_ADDRESS"]
    self.setupDisplay = exported["GNOME_SETUP_DISPLAY"]
    self.host = host
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
}
