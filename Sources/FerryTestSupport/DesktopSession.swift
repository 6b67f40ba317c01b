import FerrySystem
import Foundation

/// A private session of a real desktop's compositor for interop tests, beside
/// ``WaylandSession``'s headless sway: ``MutterSession`` (GNOME's compositor, nested on an Xvfb
/// of its own) and ``KWinSession`` (KDE Plasma's, on its virtual backend). Each runs under a
/// session bus of its own (`dbus-run-session`), with its own `XDG_RUNTIME_DIR` (0700) and the
/// Xwayland it starts, never the caller's displays.
///
/// ```swift
/// let session = try await MutterSession.dedicated("DesktopSessionTests")
/// _ = try await session.runServing(["wl-copy", "hello"])  // wl-copy forks a server
/// let pasted = try await session.run(["xclip", "-o", "-selection", "clipboard"])
/// ```
///
/// **Who runs what.** Everything runs as the test process's user (root on CI: both compositors
/// run as root). Peers (``peer(_:input:environment:)``) start with a clean environment that
/// names the session (``peerEnvironment``); a `ferry` the test starts adds ``environment`` to
/// its own.
///
/// **Lifetime.** As ``WaylandSession``: one session per purpose per test process, started on
/// first use; ``stop()`` ends the compositor's process group (Xwayland and dbus-daemon with
/// it) and removes the session's directory. Sessions still running when the test process exits
/// are stopped then; ``ProcessKeeper`` ends the groups however the process ends.
public protocol DesktopSession: AnyObject, Sendable {
  /// The compositor's name, for messages: `Mutter`, `KWin`.
  static var compositorName: String { get }

  /// The session of its own for the suites that name `purpose`, started on a thread of its own
  /// the first time: suites that each run in order but all use the CLIPBOARD must not share a
  /// session, since Swift Testing runs different suites at the same time.
  ///
  /// - Throws: ``PeerUnavailable`` when the compositor's package (or dbus-run-session, Xvfb)
  ///   is not installed, or ``DesktopSessionError``.
  static func dedicated(_ purpose: String) async throws -> Self

  /// A session for one test that ends it itself: never shared. Call ``stop()`` when done; the
  /// end of the test process stops it otherwise.
  ///
  /// - Throws: ``PeerUnavailable`` or ``DesktopSessionError``.
  static func disposable() async throws -> Self

  /// The sessions of this kind the test process started, by purpose (what ``dedicated(_:)``
  /// and ``disposable()`` keep).
  static var sessions: DesktopSessionCache<Self> { get }

  /// Starts a new session, on the calling thread: what ``dedicated(_:)`` and
  /// ``disposable()`` call.
  ///
  /// - Throws: ``PeerUnavailable`` or ``DesktopSessionError``.
  static func start() throws -> Self

  /// The session's directory: `runtime` (`XDG_RUNTIME_DIR`), `home`, `tmp`, the keeper and
  /// its files, `compositor.log`.
  var directory: String { get }
  /// The compositor's socket name (`WAYLAND_DISPLAY`) in ``runtimeDirectory``.
  var socketName: String { get }
  /// The compositor's Xwayland (`DISPLAY`), such as `:0`.
  var xDisplay: String { get }
  /// The Xwayland's authority file (`XAUTHORITY`), when the compositor made one (Mutter's
  /// `.mutter-Xwaylandauth.*`; KWin's Xwayland takes local clients without one).
  var xAuthority: String? { get }
  /// The address of the session's own bus (`DBUS_SESSION_BUS_ADDRESS`).
  var sessionBus: String? { get }
  /// The process id of `dbus-run-session`, the leader of the compositor's process group.
  var processIdentifier: Int32 { get }
  /// How long the compositor took to start, from its spawn until it ran its command.
  var startup: Duration { get }
  /// The compositor's standard output and error so far, for a failure's message.
  var log: String { get }

  /// Ends the compositor's process group (Xwayland with it), waits until it has ended, and
  /// removes the session's directory. Its clients lose the display. Blocks for moments, so a
  /// `defer` may call it; a second call does nothing.
  func stop()
}

extension DesktopSession {
  /// The session for `purpose`, started on first use, on the calling thread.
  ///
  /// - Throws: ``PeerUnavailable`` or ``DesktopSessionError``.
  @available(*, noasync, message: "starts a compositor; await the async form")
  public static func dedicated(_ purpose: String) throws -> Self {
    try sessions.session(for: purpose) { try start() }
  }

  public static func dedicated(_ purpose: String) async throws -> Self {
    try await sessions.session(for: purpose) { try start() }
  }

  /// A session never shared, started on the calling thread: call ``stop()`` when done.
  ///
  /// - Throws: ``PeerUnavailable`` or ``DesktopSessionError``.
  @available(*, noasync, message: "starts a compositor; await the async form")
  public static func disposable() throws -> Self {
    try sessions.disposable { try start() }
  }

  public static func disposable() async throws -> Self {
    try await DetachedThread.run { try disposable() }
  }

  /// `XDG_RUNTIME_DIR` of the compositor and its peers.
  public var runtimeDirectory: String { "\(directory)/runtime" }

  /// The compositor's socket, for `wl_display_connect`: an absolute path works without
  /// `XDG_RUNTIME_DIR`.
  public var socketPath: String { "\(runtimeDirectory)/\(socketName)" }

  /// What a process of the test (a `ferry` it starts) needs to reach the session:
  /// `XDG_RUNTIME_DIR`, `WAYLAND_DISPLAY`, `DISPLAY` (the compositor's Xwayland) and, when the
  /// compositor made one, `XAUTHORITY`.
  public var environment: [String: String] {
    var environment = [
      "XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName, "DISPLAY": xDisplay,
    ]
    if let xAuthority { environment["XAUTHORITY"] = xAuthority }
    return environment
  }

  /// The environment every peer starts with: ``environment``, `PATH`, `HOME` (the session's),
  /// `LANG`, `TMPDIR`, `DBUS_SESSION_BUS_ADDRESS` (the session's bus), `GTK_A11Y=none` and
  /// `NO_AT_BRIDGE=1` (no accessibility bus started for a GTK peer), and Scripts/test's mark
  /// when set. Nothing else of the test process's environment.
  public var peerEnvironment: [String: String] {
    var variables = environment
    variables["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    variables["HOME"] = "\(directory)/home"
    variables["LANG"] = "C.UTF-8"
    variables["TMPDIR"] = "\(directory)/tmp"
    variables["GTK_A11Y"] = "none"
    variables["NO_AT_BRIDGE"] = "1"
    if let sessionBus { variables["DBUS_SESSION_BUS_ADDRESS"] = sessionBus }
    if let mark = ProcessInfo.processInfo.environment["FERRY_TEST_RUN"] {
      variables["FERRY_TEST_RUN"] = mark
    }
    return variables
  }
}

/// A desktop session could not be started.
public struct DesktopSessionError: Error, CustomStringConvertible {
  /// What failed, with the compositor's log when it has one.
  public var message: String
  /// An error that says `message`.
  public init(message: String) { self.message = message }
  public var description: String { message }
}
