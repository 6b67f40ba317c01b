import FerrySystem
import Foundation

/// Running peers (wl-copy, wl-paste, xclip, xdotool, python3 programs) inside a
/// ``DesktopSession``, with a clean environment that names the session.
extension DesktopSession {
  /// Starts `arguments` (program first, found on this process's `PATH`) as a client of the
  /// session, with ``peerEnvironment`` plus `environment` and nothing else.
  ///
  /// - Parameters:
  ///   - input: Bytes for standard input, or `nil` for none.
  ///   - environment: Extra variables, over ``peerEnvironment``.
  /// - Throws: ``PeerUnavailable`` when the program is not installed.
  public func peer(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]
  ) throws -> PeerProcess {
    guard let program = Peers.path(of: arguments[0]) else {
      throw PeerUnavailable(program: arguments[0])
    }
    let variables = peerEnvironment.merging(environment) { $1 }
    let clean =
      ["/usr/bin/env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return try PeerProcess(clean + [program] + arguments.dropFirst(), display: nil, input: input)
  }

  /// The `async` form of ``peer(_:input:environment:)``, for a peer that keeps running.
  public func peer(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]
  ) async throws -> PeerProcess {
    try await DetachedThread.run {
      try self.peer(arguments, input: input, environment: environment)
    }
  }

  /// Runs a peer of the session to completion (``peer(_:input:environment:)``), killing its
  /// process group after `timeout`.
  @available(*, noasync, message: "blocks a thread of the concurrency pool; await the async form")
  public func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    timeout: Duration = .seconds(20)
  ) throws -> PeerProcess.Result {
    try peer(arguments, input: input, environment: environment).finish(timeout: timeout)
  }

  /// The `async` form of ``run(_:input:environment:timeout:)``: waits on a thread of its own.
  public func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    timeout: Duration = .seconds(20)
  ) async throws -> PeerProcess.Result {
    try await DetachedThread.run {
      try self.run(arguments, input: input, environment: environment, timeout: timeout)
    }
  }

  /// Runs a peer that forks a server and returns, such as `wl-copy` or `xclip -in`: as
  /// ``run(_:input:environment:timeout:)``, but the peer's output goes through files, so the
  /// server it leaves holds none of the result's pipes and the result comes as soon as the
  /// peer returns.
  @available(*, noasync, message: "blocks a thread of the concurrency pool; await the async form")
  public func runServing(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    timeout: Duration = .seconds(20)
  ) throws -> PeerProcess.Result {
    guard let program = Peers.path(of: arguments[0]) else {
      throw PeerUnavailable(program: arguments[0])
    }
    return try run(
      ServingPeer.command(program, arguments.dropFirst()), input: input,
      environment: environment, timeout: timeout)
  }

  /// The `async` form of ``runServing(_:input:environment:timeout:)``.
  public func runServing(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    timeout: Duration = .seconds(20)
  ) async throws -> PeerProcess.Result {
    try await DetachedThread.run {
      try self.runServing(arguments, input: input, environment: environment, timeout: timeout)
    }
  }

  /// The globals the compositor offers a Wayland client, each with its version, as
  /// `wl-paste --list-types` sees them (libwayland's `WAYLAND_DEBUG` trace of the registry),
  /// read once the registry's round trip is done: wl-paste is then ended, since on an empty
  /// clipboard KWin 5.27 never sends data-control's first `selection` and wl-paste waits.
  ///
  /// - Throws: ``PeerUnavailable`` when wl-paste is not installed, or ``DesktopSessionError``
  ///   when its trace names no global within 20 s.
  public func globals() async throws -> [String: Int] {
    let listing = try await peer(
      ["wl-paste", "--list-types"], environment: ["WAYLAND_DEBUG": "client"])
    // The registry's globals come before the answer to the first `wl_display.sync`.
    let listed = await Deadline.wait(for: .seconds(20)) {
      !listing.process.isRunning
        || listing.errorSoFar.range(of: #"wl_callback@\d+\.done\("#, options: .regularExpression)
          != nil
    }
    let trace = await listing.stopped()
    let globals = Self.registryGlobals(in: trace.stderrText)
    guard listed, !globals.isEmpty else {
      throw DesktopSessionError(
        message: "wl-paste (status \(trace.status)) saw no globals: \(trace.stderrText)")
    }
    return globals
  }

  /// The globals in a `WAYLAND_DEBUG` trace: its `wl_registry@N.global(NAME, "INTERFACE",
  /// VERSION)` lines.
  static func registryGlobals(in trace: String) -> [String: Int] {
    var globals: [String: Int] = [:]
    for line in trace.split(separator: "\n") {
      guard let start = line.range(of: ".global(")?.upperBound, line.contains("wl_registry@")
      else { continue }
      let fields = line[start...].split(separator: ",").map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " \")"))
      }
      if fields.count == 3, let version = Int(fields[2]) { globals[fields[1]] = version }
    }
    return globals
  }
}
