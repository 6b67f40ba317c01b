import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private headless Wayland session for interop tests: its own sway 1.7 (wlroots' headless
/// backend, no input devices, the pixman renderer), with data-control (wlr, version 2) and a
/// lazy XWayland; never the caller's `WAYLAND_DISPLAY`.
///
/// ```swift
/// let session = try await WaylandSession.dedicated("WaylandSessionTests")
/// _ = try await session.runServing(["wl-copy", "hello"])  // wl-copy forks a server
/// let pasted = try await session.run(["wl-paste", "--no-newline"])
/// ```
///
/// **Who runs what.** sway 1.7 refuses to run as root, so a test process running as root (as
/// CI does) starts the compositor, and every peer ``peer(_:input:environment:x11:)`` starts,
/// as ``SessionUser/testUserName`` (created if missing), with a clean environment:
/// `XDG_RUNTIME_DIR` a 0700 directory that user owns, `WAYLAND_DISPLAY`, `TMPDIR`, `HOME`.
/// The test process itself, and the `ferry` processes it starts, stay root and reach the
/// compositor's socket by its path (``environment``, ``socketPath``): root passes the
/// directory's permissions (`CAP_DAC_OVERRIDE`), and sway does not check who connects, so
/// no ACL is needed. A test process that does not run as root runs everything as itself.
///
/// **`/tmp`.** XWayland's lock files (`/tmp/.X<n>-lock`) and sockets (`/tmp/.X11-unix`) must be
/// writable by the compositor's user, and wl-copy buffers standard input in
/// `/tmp/wl-copy-buffer-*`, while `/tmp` may be `0755 root`. As root, sway therefore runs in a
/// mount namespace of its own (`unshare --mount`) whose `/tmp` is the session's `tmp`
/// directory; the session's own directory is mounted inside it at its usual path, so
/// `XDG_RUNTIME_DIR` is the same path inside and out. Peers join that namespace (`nsenter`).
/// X clients outside it, the test process included, reach XWayland through its abstract
/// socket (`@/tmp/.X11-unix/X<n>`), which no mount namespace hides.
///
/// **Lifetime.** As ``XvfbServer``: one session per purpose per test process, started on first
/// use; ``stop()`` ends the compositor's process group (XWayland with it; wl-copy's background
/// servers end when the compositor goes) and removes the session's directory. Sessions still
/// running when the test process exits are stopped then; ``ProcessKeeper`` ends the group
/// however the process ends (a crash leaves only the directory behind).
public final class WaylandSession: Sendable {
  /// The session's directory: `runtime` (`XDG_RUNTIME_DIR`), `tmp`, `home`, `sway.conf`,
  /// `sway.log`.
  public let directory: String
  /// `XDG_RUNTIME_DIR` of the compositor and its peers: the compositor's user owns it, 0700.
  public let runtimeDirectory: String
  /// The compositor's socket name (`WAYLAND_DISPLAY`), such as `wayland-1` (sway 1.7 never
  /// uses `wayland-0`).
  public let socketName: String
  /// The user the compositor and the peers run as.
  public let user: SessionUser
  /// The compositor's process now (another after ``restartCompositor()``).
  var process: TestChild { compositor.withLock { $0 } }
  private let compositor: TrackedMutex<TestChild>
  /// How the compositor is started, for ``restartCompositor()``.
  private let launch: Launch
  /// `TMPDIR` of the compositor and the peers, as they see it.
  let temporaryDirectory: String
  /// The XWayland display once asked for, with the test process's user let in.
  let xDisplayName = TrackedMutex<String?>(nil)

  /// The compositor's process id (the leader of its process group).
  public var processIdentifier: Int32 { process.processIdentifier }

  /// The compositor's socket, for `wl_display_connect`: an absolute path works without
  /// `XDG_RUNTIME_DIR`.
  public var socketPath: String { "\(runtimeDirectory)/\(socketName)" }

  /// What a process of the test's own user needs to reach the compositor: `XDG_RUNTIME_DIR`
  /// and `WAYLAND_DISPLAY`, for a `ferry` the test starts.
  public var environment: [String: String] {
    ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName]
  }

  /// sway's standard error so far (errors only; `-d` is not passed), for a failure's message.
  public var log: String {
    (try? String(contentsOfFile: "\(directory)/sway.log", encoding: .utf8)) ?? ""
  }

  nonisolated(unsafe) private static var sessions: [String: Result<WaylandSession, any Error>] = [:]
  nonisolated(unsafe) private static var running: [ObjectIdentifier: WaylandSession] = [:]
  nonisolated(unsafe) private static var exitHookInstalled = false
  /// Guards `sessions`, `running` and `exitHookInstalled`; never held while a session starts.
  private static let cacheLock = NSLock()
  /// Held while a session starts.
  private static let startLock = NSLock()

  /// The session of this test process, started on first use.
  ///
  /// - Throws: ``PeerUnavailable`` when sway (or util-linux's `unshare`, `setpriv`, `nsenter`)
  ///   is not installed, or ``WaylandSessionError``.
  @available(*, noasync, message: "starts a compositor; await the async form")
  public static func shared() throws -> WaylandSession {
    try dedicated("shared")
  }

  /// A session of its own for the suites that name `purpose`, started on first use: suites
  /// that each run in order but all use the CLIPBOARD must not share a session, since Swift
  /// Testing runs different suites at the same time.
  ///
  /// - Throws: ``PeerUnavailable`` or ``WaylandSessionError``.
  @available(*, noasync, message: "starts a compositor; await the async form")
  public static func dedicated(_ purpose: String) throws -> WaylandSession {
    startLock.lock()
    defer { startLock.unlock() }
    if let existing = cacheLock.withLock({ sessions[purpose] }) { return try existing.get() }
    let result = Result { try WaylandSession() }
    cacheLock.withLock { sessions[purpose] = result }
    return try result.get()
  }

  /// The session for `purpose`, started on a thread of its own the first time.
  ///
  /// - Throws: ``PeerUnavailable`` or ``WaylandSessionError``.
  public static func dedicated(_ purpose: String) async throws -> WaylandSession {
    if let existing = cacheLock.withLock({ sessions[purpose] }) { return try existing.get() }
    return try await DetachedThread.run { try dedicated(purpose) }
  }

  /// A session for one test that ends it itself (to see the compositor go away): never
  /// shared. Call ``stop()`` when done; the end of the test process stops it otherwise.
  ///
  /// - Throws: ``PeerUnavailable`` or ``WaylandSessionError``.
  @available(*, noasync, message: "starts a compositor; await the async form")
  public static func disposable() throws -> WaylandSession {
    startLock.lock()
    defer { startLock.unlock() }
    return try WaylandSession()
  }

  /// The `async` form of ``disposable()``, started on a thread of its own.
  ///
  /// - Throws: ``PeerUnavailable`` or ``WaylandSessionError``.
  public static func disposable() async throws -> WaylandSession {
    try await DetachedThread.run { try disposable() }
  }

  /// Ends the compositor's process group (XWayland with it), waits until the compositor has
  /// ended, and removes the session's directory. Its clients lose the display.
  ///
  /// Blocks for moments (the compositor ends within them of SIGTERM), so a `defer` may call it.
  public func stop() {
    Self.end(process)
    try? FileManager.default.removeItem(atPath: directory)
    _ = Self.cacheLock.withLock { Self.running.removeValue(forKey: ObjectIdentifier(self)) }
  }

  // MARK: Starting

  private init() throws {
    guard let sway = Peers.path(of: "sway") else { throw PeerUnavailable(program: "sway") }
    let user = try SessionUser.forSessions()
    let isolated = !user.isCurrent
    var tools: [String: String] = [:]
    if isolated {
      for tool in ["unshare", "setpriv", "nsenter"] {
        guard let path = Peers.path(of: tool) else {
          throw PeerUnavailable(program: "\(tool) (util-linux)")
        }
        tools[tool] = path
      }
    }

    // As root under /tmp itself (so that the namespace's mirror of it below is one level
    // deep); otherwise wherever this process keeps temporary files.
    let parent = isolated ? "/tmp" : FileManager.default.temporaryDirectory.path
    var template = Array("\(parent)/ferry-wayland-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw WaylandSessionError(message: "mkdtemp in \(parent) failed")
    }
    let directory = String(cString: made)
    var started: TestChild?
    defer {
      // A session that did not start leaves nothing behind.
      if started == nil { try? FileManager.default.removeItem(atPath: directory) }
    }
    let runtime = "\(directory)/runtime"
    let privateTemporary = "\(directory)/tmp"
    let home = "\(directory)/home"
    try Self.makeDirectory(directory, mode: 0o755, owner: nil)
    try Self.makeDirectory(runtime, mode: 0o700, owner: user)
    try Self.makeDirectory(privateTemporary, mode: 0o1777, owner: user)
    try Self.makeDirectory(home, mode: 0o700, owner: user)
    let configuration = "\(directory)/sway.conf"
    try Data(
      """
      # FerryTestSupport.WaylandSession: a headless sway for interop tests.
      # XWayland starts on the first X client (the test's DISPLAY).
      xwayland enable

      """.utf8
    ).write(to: URL(fileURLWithPath: configuration))

    let temporaryDirectory = isolated ? "/tmp" : privateTemporary
    var environment = [
      "PATH": "/usr/local/bin:/usr/bin:/bin",
      "HOME": home,
      "XDG_RUNTIME_DIR": runtime,
      "TMPDIR": temporaryDirectory,
      "LANG": "C.UTF-8",
      "WLR_BACKENDS": "headless",
      "WLR_LIBINPUT_NO_DEVICES": "1",
      "WLR_RENDERER": "pixman",
    ]
    // Scripts/test's mark: a compositor a run left behind is then named and fails the run.
    if let mark = ProcessInfo.processInfo.environment["FERRY_TEST_RUN"] {
      environment["FERRY_TEST_RUN"] = mark
    }

    let launch = Launch(
      sway: sway, tools: tools, isolated: isolated, directory: directory,
      configuration: configuration, environment: environment, user: user)
    let (process, socketName) = try Self.start(launch)
    self.directory = directory
    self.runtimeDirectory = runtime
    self.socketName = socketName
    self.user = user
    self.compositor = TrackedMutex(process)
    self.launch = launch
    self.temporaryDirectory = temporaryDirectory
    started = process
    do {
      try waitUntilReady(process)
    } catch {
      started = nil
      throw error
    }
    Self.registerForExit(self)
  }

  /// Ends the compositor's process group (XWayland with it) and waits until the compositor
  /// has ended, killing it after 10 s.
  private static func end(_ process: TestChild) {
    let leader = process.processIdentifier
    if process.isRunning { kill(-leader, SIGTERM) }
    if !Deadline.wait(for: .seconds(10), { !process.isRunning }) {
      kill(-leader, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Ends the compositor and starts it again in the same session — the same directories,
  /// the same socket name — as a user's compositor restarted: its clients lose their
  /// connections, and the XWayland display asked for before is gone with it.
  ///
  /// Blocks while the new compositor starts.
  ///
  /// - Throws: ``WaylandSessionError`` when it does not start, or takes another socket name.
  @available(*, noasync, message: "blocks while sway starts; call it inside DetachedThread.run")
  public func restartCompositor() throws {
    Self.end(process)
    xDisplayName.withLock { $0 = nil }
    let (process, name) = try Self.start(launch)
    compositor.withLock { $0 = process }
    guard name == socketName else {
      throw WaylandSessionError(message: "sway started again on \(name), not \(socketName)")
    }
    try waitUntilReady(process)
  }

  /// What starting the compositor takes.
  private struct Launch: Sendable {
    var sway: String
    var tools: [String: String]
    var isolated: Bool
    var directory: String
    var configuration: String
    var environment: [String: String]
    var user: SessionUser
  }

  /// Starts sway as `launch` says and waits until it has made its sockets.
  ///
  /// - Returns: The compositor's process and its socket name (`wayland-1`).
  private static func start(_ launch: Launch) throws -> (TestChild, String) {
    let (directory, tools, sway, configuration, environment, user) = (
      launch.directory, launch.tools, launch.sway, launch.configuration, launch.environment,
      launch.user
    )
    let runtime = "\(directory)/runtime"
    let logPath = "\(directory)/sway.log"
    guard FileManager.default.createFile(atPath: logPath, contents: nil),
      let log = FileHandle(forWritingAtPath: logPath)
    else { throw WaylandSessionError(message: "cannot create \(logPath)") }
    defer { try? log.close() }
    let process: TestChild
    if launch.isolated {
      // The namespace's /tmp is the session's tmp; the session's directory is mounted at its
      // own path inside it, so every path in it means the same inside and out. `exec` all the
      // way: the child's pid is sway's, the one peers' nsenter targets.
      let script = """
        set -e
        mkdir -p "$1/tmp/$2"
        mount --bind "$1" "$1/tmp/$2"
        mount --rbind "$1/tmp" /tmp
        exec "$3" --reuid="$4" --regid="$5" --init-groups -- "$6" -c "$7"
        """
      process = try TestChild.start(
        path: tools["unshare"]!,
        arguments: [
          "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", directory,
          (directory as NSString).lastPathComponent, tools["setpriv"]!, "\(user.uid)",
          "\(user.gid)", sway,
          configuration,
        ], environment: environment, standardOutput: .descriptor(log.fileDescriptor),
        standardError: .descriptor(log.fileDescriptor))
    } else {
      process = try TestChild.start(
        path: sway, arguments: ["-c", configuration], environment: environment,
        standardOutput: .descriptor(log.fileDescriptor),
        standardError: .descriptor(log.fileDescriptor))
    }
    func failure(_ message: String) -> WaylandSessionError {
      if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
      return WaylandSessionError(message: "\(message); sway's log:\n\(log)")
    }

    // sway makes its Wayland socket and then its IPC socket as it starts.
    var socketName: String?
    let appeared = Deadline.wait(for: .seconds(20)) {
      guard process.isRunning else { return true }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
      socketName =
        names.filter { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.sorted().first
      return socketName != nil && names.contains { $0.hasPrefix("sway-ipc.") }
    }
    guard appeared, process.isRunning, let socketName else {
      throw failure(process.isRunning ? "sway made no socket in 20 s" : "sway ended as it started")
    }
    return (process, socketName)
  }

  /// Waits until the compositor's IPC answers from its event loop with the headless output
  /// made.
  private func waitUntilReady(_ process: TestChild) throws {
    var last: PeerProcess.Result?
    let answered = Deadline.wait(for: .seconds(20)) {
      guard process.isRunning else { return true }
      last = try? run(["swaymsg", "-t", "get_outputs", "--raw"], timeout: .seconds(10))
      return last?.status == 0 && last?.stdoutText.contains("HEADLESS-") == true
    }
    guard answered, process.isRunning else {
      if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      let log = (try? String(contentsOfFile: "\(directory)/sway.log", encoding: .utf8)) ?? ""
      throw WaylandSessionError(
        message:
          "sway did not answer swaymsg -t get_outputs: status \(last.map { "\($0.status)" } ?? "none"), "
          + "\(last?.stdoutText ?? "") \(last?.stderrText ?? ""); sway's log:\n\(log)")
    }
  }

  private static func makeDirectory(_ path: String, mode: mode_t, owner: SessionUser?) throws {
    if mkdir(path, mode) != 0 && errno != EEXIST {
      throw WaylandSessionError(message: "mkdir \(path): \(String(cString: strerror(errno)))")
    }
    // mkdir's mode passes through the umask; the sticky bit needs chmod too.
    guard chmod(path, mode) == 0 else {
      throw WaylandSessionError(message: "chmod \(path): \(String(cString: strerror(errno)))")
    }
    if let owner, !owner.isCurrent, chown(path, owner.uid, owner.gid) != 0 {
      throw WaylandSessionError(message: "chown \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Stops the sessions still running when the test process exits (Swift Testing's runner
  /// ends with `exit`), so that their directories go too.
  private static func registerForExit(_ session: WaylandSession) {
    cacheLock.withLock {
      running[ObjectIdentifier(session)] = session
      if !exitHookInstalled {
        exitHookInstalled = true
        atexit { WaylandSession.stopRunningSessions() }
      }
    }
  }

  private static func stopRunningSessions() {
    let sessions = cacheLock.withLock { Array(running.values) }
    for session in sessions { session.stop() }
  }
}

/// A headless Wayland session could not be started.
public struct WaylandSessionError: Error, CustomStringConvertible {
  public var message: String
  public init(message: String) { self.message = message }
  public var description: String { message }
}
