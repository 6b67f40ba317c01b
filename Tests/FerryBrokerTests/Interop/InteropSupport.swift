import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Runs blocking work (waiting for a process) on a thread of its own, off Swift's pool.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}

/// The built command-line tools, next to the test bundle.
enum Tools {
  static let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  static func path(_ name: String) throws -> String {
    let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent(name).path }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      throw PeerUnavailable(program: "\(name) (build it with `swift build`)")
    }
    return found
  }
  static var peersDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Peers")
  }
}

/// A private runtime directory and, optionally, a running `ferry daemon` on it.
final class BrokerFixture: @unchecked Sendable {
  let runtime: URL
  let display: String?
  private(set) var daemon: PeerProcess?

  /// Creates the environment; starts a broker when `start` is set.
  init(display: String?, start: Bool) async throws {
    runtime = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-it-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    self.display = display
    if start { try await startDaemon() }
  }

  /// The fixture's own runtime, home, data and configuration directories, whatever the
  /// test run's environment says.
  var environment: [String: String] {
    [
      "XDG_RUNTIME_DIR": runtime.path, "HOME": runtime.path,
      "XDG_DATA_HOME": runtime.appendingPathComponent(".local/share").path,
      "XDG_CONFIG_HOME": runtime.appendingPathComponent(".config").path, "FERRY_CONFIG": "",
    ]
  }

  /// Writes the broker's configuration file (`~/.config/ferry/config` of the fixture's home).
  @discardableResult
  func writeConfiguration(_ text: String) throws -> String {
    let directory = runtime.appendingPathComponent(".config/ferry")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("config")
    try Data(text.utf8).write(to: file)
    return file.path
  }

  /// Starts `ferry daemon --verbose` with `arguments`, run by `wrapper` when one is given
  /// (`prlimit …`).
  func startDaemon(wrappedIn wrapper: [String] = [], arguments: [String] = []) async throws {
    let command = wrapper + [try Tools.path("ferry"), "daemon", "--verbose"] + arguments
    let process = try PeerProcess(command, display: display, environment: environment)
    daemon = process
    let ready = await Deadline.wait(for: .seconds(20)) {
      (try? await self.run(["ferry", "status"]).status) == 0
    }
    guard ready else {
      let log = process.kill().stderrText
      throw PeerUnavailable(program: "a ferry daemon that starts (log: \(log.suffix(500)))")
    }
  }

  /// Stops the broker and returns its log.
  @discardableResult
  func stop() async throws -> String {
    guard let daemon else { return "" }
    self.daemon = nil
    return try await offPool { daemon.kill().stderrText }
  }

  /// Runs a tool (`pbcopy`, `pbpaste`, `ferry`) or a peer program to completion, with
  /// `extra` added to the fixture's environment.
  func run(
    _ arguments: [String], input: Data? = nil, timeout: Duration = .seconds(20), environment extra: [String: String] = [:]
  ) async throws -> PeerProcess.Result {
    var command = arguments
    if ["pbcopy", "pbpaste", "ferry"].contains(command[0]) { command[0] = try Tools.path(command[0]) }
    let (resolved, environment, display) = (command, environment.merging(extra) { $1 }, display)
    return try await offPool {
      try PeerProcess.run(resolved, display: display, input: input, timeout: timeout, environment: environment)
    }
  }

  /// `count` MiB of ASCII text lines in a file under the runtime directory.
  func textFile(mebibytes count: Int) throws -> URL {
    let file = runtime.appendingPathComponent("text-\(count)")
    let line = Data("0123456789abcdefghijklmnopqrstuvwxyz ferry interop test line\n".utf8)
    var data = Data(capacity: count << 20)
    while data.count < count << 20 { data.append(line) }
    try data.prefix(count << 20).write(to: file)
    return file
  }

  /// Starts a program and leaves it running.
  func start(_ arguments: [String], input: Data? = nil) throws -> PeerProcess {
    var command = arguments
    if ["pbcopy", "pbpaste", "ferry"].contains(command[0]) { command[0] = try Tools.path(command[0]) }
    return try PeerProcess(command, display: display, input: input, environment: environment)
  }

  deinit {
    if let daemon { _ = daemon.kill() }
    try? FileManager.default.removeItem(at: runtime)
  }
}

/// The system Python's GTK and Tk peers.
enum ScriptPeers {
  static func gtk(_ arguments: [String]) throws -> [String] {
    guard let python = Peers.systemPython else { throw PeerUnavailable(program: "/usr/bin/python3") }
    return [python, "-u", Tools.peersDirectory.appendingPathComponent("gtk_clipboard.py").path] + arguments
  }
  static func tk(_ arguments: [String]) throws -> [String] {
    guard let python = Peers.systemPython else { throw PeerUnavailable(program: "/usr/bin/python3") }
    return [python, "-u", Tools.peersDirectory.appendingPathComponent("tk_clipboard.py").path] + arguments
  }
}

/// Waits, off the pool, for a started peer's output to contain `text`.
func waitForOutput(_ peer: PeerProcess, _ text: String, timeout: Duration = .seconds(15)) async -> Bool {
  (try? await offPool { peer.waitForOutput(text, timeout: timeout) }) ?? false
}

/// Hex of UTF-8 text, as the script peers print it.
func hex(_ text: String) -> String { Data(text.utf8).map { String(format: "%02x", $0) }.joined() }
