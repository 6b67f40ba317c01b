import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Running peers (wl-copy, wl-paste, swaymsg, wtype, GTK, xclip under XWayland) inside a
/// ``WaylandSession``: as the session's user, in the compositor's mount namespace, with a
/// clean environment that names the session.
extension WaylandSession {
  /// The environment every peer starts with: `PATH`, `HOME`, `LANG`, `TMPDIR`,
  /// `XDG_RUNTIME_DIR`, `WAYLAND_DISPLAY`, `SWAYSOCK`, and Scripts/test's mark when set. Nothing
  /// else of the test process's environment: no `DISPLAY`, unless the peer asks for X.
  public var peerEnvironment: [String: String] {
    var environment = [
      "PATH": "/usr/local/bin:/usr/bin:/bin",
      "HOME": "\(directory)/home",
      "LANG": "C.UTF-8",
      "TMPDIR": temporaryDirectory,
      "XDG_RUNTIME_DIR": runtimeDirectory,
      "WAYLAND_DISPLAY": socketName,
    ]
    if let socket = try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)
      .first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") })
    {
      environment["SWAYSOCK"] = "\(runtimeDirectory)/\(socket)"
    }
    if let mark = ProcessInfo.processInfo.environment["FERRY_TEST_RUN"] {
      environment["FERRY_TEST_RUN"] = mark
    }
    return environment
  }

  /// Starts `arguments` (program first, found on this process's `PATH`) as a client of the
  /// session: as the session's user, in the compositor's mount namespace, with
  /// ``peerEnvironment`` plus `environment`.
  ///
  /// - Parameters:
  ///   - input: Bytes for standard input, or `nil` for none.
  ///   - environment: Extra variables, over ``peerEnvironment``.
  ///   - x11: Set `DISPLAY` to the session's XWayland (``xDisplay()``), for an X peer.
  /// - Throws: ``PeerUnavailable`` when the program (or, for `x11`, `xhost`) is not installed.
  @available(*, noasync, message: "may start XWayland; call it inside DetachedThread.run")
  public func peer(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    x11: Bool = false
  ) throws -> PeerProcess {
    guard let program = Peers.path(of: arguments[0]) else {
      throw PeerUnavailable(program: arguments[0])
    }
    var variables = peerEnvironment
    if x11 { variables["DISPLAY"] = try xDisplay() }
    variables.merge(environment) { $1 }
    let command = [program] + arguments.dropFirst()
    let clean =
      ["/usr/bin/env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return try PeerProcess(userPrefix() + clean + command, display: nil, input: input)
  }

  /// Runs a peer of the session to completion (``peer(_:input:environment:x11:)``), killing its
  /// process group after `timeout`.
  @available(*, noasync, message: "blocks a thread of the concurrency pool; await the async form")
  public func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    x11: Bool = false,
    timeout: Duration = .seconds(20)
  ) throws -> PeerProcess.Result {
    try peer(arguments, input: input, environment: environment, x11: x11).finish(timeout: timeout)
  }

  /// The `async` form of ``run(_:input:environment:x11:timeout:)``: waits on a thread of its own.
  public func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    x11: Bool = false,
    timeout: Duration = .seconds(20)
  ) async throws -> PeerProcess.Result {
    try await DetachedThread.run {
      try self.run(arguments, input: input, environment: environment, x11: x11, timeout: timeout)
    }
  }

  /// Runs a peer that forks a server and returns, such as `wl-copy` (which serves its
  /// selection from the background until it is replaced) or `xclip -in`: as
  /// ``run(_:input:environment:x11:timeout:)``, but the peer's output goes through files, so
  /// the server it leaves holds none of the result's pipes and the result comes as soon as the
  /// peer returns (rather than after ``PeerProcess``'s wait for the pipes' end).
  @available(*, noasync, message: "blocks a thread of the concurrency pool; await the async form")
  public func runServing(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    x11: Bool = false,
    timeout: Duration = .seconds(20)
  ) throws -> PeerProcess.Result {
    guard let program = Peers.path(of: arguments[0]) else {
      throw PeerUnavailable(program: arguments[0])
    }
    return try run(
      ServingPeer.command(program, arguments.dropFirst()), input: input,
      environment: environment,
      x11: x11, timeout: timeout)
  }

  /// The `async` form of ``runServing(_:input:environment:x11:timeout:)``.
  public func runServing(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    x11: Bool = false,
    timeout: Duration = .seconds(20)
  ) async throws -> PeerProcess.Result {
    try await DetachedThread.run {
      try self.runServing(
        arguments, input: input, environment: environment, x11: x11, timeout: timeout)
    }
  }

  /// The `async` form of ``peer(_:input:environment:x11:)``, for a peer that keeps running.
  public func peer(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    x11: Bool = false
  ) async throws -> PeerProcess {
    try await DetachedThread.run {
      try self.peer(arguments, input: input, environment: environment, x11: x11)
    }
  }

  /// The session's XWayland display (such as `:0`), started on first use, with the test
  /// process's user let in (`xhost +si:localuser:…`, as the session's user): XWayland admits
  /// only the compositor's user, and a test running as root would otherwise be refused
  /// ("Authorization required"). XWayland runs until the compositor ends.
  ///
  /// X clients reach it through its abstract socket, from inside the compositor's mount
  /// namespace or not. Before one X window is mapped and focused, sway gives XWayland no seat,
  /// so X and Wayland selections are not bridged: a bridge test maps a window first.
  ///
  /// - Throws: ``PeerUnavailable`` when `xhost` (x11-xserver-utils) is not installed, or
  ///   ``WaylandSessionError``.
  @available(*, noasync, message: "may start XWayland; call it inside DetachedThread.run")
  public func xDisplay() throws -> String {
    if let known = xDisplayName.withLock({ $0 }) { return known }
    guard Peers.path(of: "xhost") != nil else {
      throw PeerUnavailable(program: "xhost (x11-xserver-utils)")
    }
    // sway sets DISPLAY in its own environment as it sets XWayland up; `exec` shows it.
    let file = "\(directory)/home/display"
    try? FileManager.default.removeItem(atPath: file)
    let asked = try run([
      "swaymsg", "exec", "printenv DISPLAY > \(file).part && mv \(file).part \(file)",
    ])
    guard asked.status == 0 else {
      throw WaylandSessionError(
        message: "swaymsg exec failed (\(asked.status)): \(asked.stderrText)")
    }
    var display = ""
    _ = Deadline.wait(for: .seconds(10)) {
      display = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
      return !display.isEmpty
    }
    guard display.hasPrefix(":") else {
      throw WaylandSessionError(
        message: "sway has no XWayland display (DISPLAY '\(display)'); its log:\n\(log)")
    }
    // The first X client starts XWayland; this one also lets the test's user in.
    let me = SessionUser.lookUp(uid: geteuid())?.name ?? "root"
    let allowed = try run(
      ["xhost", "+si:localuser:\(me)"], environment: ["DISPLAY": display], timeout: .seconds(30))
    guard allowed.status == 0 else {
      throw WaylandSessionError(
        message:
          "xhost on XWayland \(display) failed (\(allowed.status)): \(allowed.stderrText)\nsway's log:\n\(log)"
      )
    }
    xDisplayName.withLock { $0 = display }
    return display
  }

  /// `nsenter` into the compositor's mount namespace and `setpriv` to its user, when the test
  /// process is not that user; nothing otherwise.
  private func userPrefix() throws -> [String] {
    if user.isCurrent { return [] }
    guard let nsenter = Peers.path(of: "nsenter"), let setpriv = Peers.path(of: "setpriv") else {
      throw PeerUnavailable(program: "nsenter and setpriv (util-linux)")
    }
    return [
      nsenter, "--target", "\(processIdentifier)", "--mount", "--", setpriv, "--reuid=\(user.uid)",
      "--regid=\(user.gid)", "--init-groups", "--",
    ]
  }
}
