import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The built command-line tools, next to the test bundle.
enum Tools {
  static let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  static func path(_ name: String) throws -> String {
    let candidates = [directory, directory.deletingLastPathComponent()].map {
      $0.appendingPathComponent(name).path
    }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw MissingBuildProduct(name: name)
    }
    return found
  }
  /// An example program of `Examples/`, a package of its own that Scripts/test builds into
  /// the repository's `.build-examples` (`swift build --build-tests` does not build it).
  static func example(_ name: String) throws -> String {
    let path = repository.appendingPathComponent(".build-examples/debug").appendingPathComponent(
      name
    ).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw MissingBuildProduct(name: name)
    }
    return path
  }
  static var repository: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
  }
  static var peersDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Peers")
  }
}

/// Ferry's own program that the build should have made is not there: a failure, never a skip
/// (a skip is for another project's program that is not installed).
struct MissingBuildProduct: Error, CustomStringConvertible {
  var name: String
  var description: String { "\(name) was not built (Scripts/test builds it)" }
}

/// A private runtime directory and, optionally, a running `ferry daemon` on it.
final class BrokerFixture: @unchecked Sendable {
  let runtime: URL
  let display: String?
  /// Added to the environment of everything the fixture runs (`WAYLAND_DISPLAY`).
  let extraEnvironment: [String: String]
  private(set) var daemon: PeerProcess?

  /// Creates the environment; starts a broker when `start` is set.
  init(display: String?, start: Bool, environment extra: [String: String] = [:]) async throws {
    runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-it-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    self.display = display
    extraEnvironment = extra
    if start { try await startDaemon() }
  }

  /// The fixture's own runtime, home, data, configuration and cache directories, whatever the
  /// test run's environment says.
  var environment: [String: String] {
    [
      "XDG_RUNTIME_DIR": runtime.path, "HOME": runtime.path,
      "XDG_DATA_HOME": runtime.appendingPathComponent(".local/share").path,
      "XDG_CONFIG_HOME": runtime.appendingPathComponent(".config").path, "FERRY_CONFIG": "",
      "XDG_CACHE_HOME": runtime.appendingPathComponent(".cache").path,
    ].merging(extraEnvironment) { $1 }
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
      let log = try await DetachedThread.run { process.kill().stderrText }
      throw DaemonDidNotStart(log: String(log.suffix(500)))
    }
  }

  /// Stops the broker and returns its log.
  @discardableResult
  func stop() async throws -> String {
    guard let daemon else { return "" }
    self.daemon = nil
    return try await DetachedThread.run { daemon.kill().stderrText }
  }

  /// Runs a tool (`pbcopy`, `pbpaste`, `ferry`) or a peer program to completion, with
  /// `extra` added to the fixture's environment.
  func run(
    _ arguments: [String], input: Data? = nil, timeout: Duration = .seconds(20),
    environment extra: [String: String] = [:]
  ) async throws -> PeerProcess.Result {
    var command = arguments
    if ["pbcopy", "pbpaste", "ferry"].contains(command[0]) {
      command[0] = try Tools.path(command[0])
    }
    let (resolved, environment, display) = (command, environment.merging(extra) { $1 }, display)
    return try await DetachedThread.run {
      try PeerProcess.run(
        resolved, display: display, input: input, timeout: timeout, environment: environment)
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
    if ["pbcopy", "pbpaste", "ferry"].contains(command[0]) {
      command[0] = try Tools.path(command[0])
    }
    return try PeerProcess(command, display: display, input: input, environment: environment)
  }

  /// Starts `ferry watch` with `arguments` and returns once the broker has subscribed it, so
  /// that it reports every change made after: the daemon (`--verbose`) logs `watching` for
  /// each watch it has subscribed; `ferry watch` itself prints nothing until a change.
  func startWatch(_ arguments: [String] = []) async throws -> PeerProcess {
    let before = watchesSubscribed
    let watch = try start(["ferry", "watch"] + arguments)
    guard
      await Deadline.wait(
        for: .seconds(20), { self.watchesSubscribed > before || !watch.process.isRunning })
        && watchesSubscribed > before
    else {
      let result = try await DetachedThread.run { watch.kill() }
      Issue.record(
        "the broker never subscribed ferry watch: \(result.stderrText) broker log: \(daemon?.errorSoFar.suffix(800) ?? "")"
      )
      throw WatchDidNotStart()
    }
    return watch
  }

  /// How many watches the broker has logged as subscribed.
  private var watchesSubscribed: Int {
    (daemon?.errorSoFar ?? "").split(separator: "\n").count { $0.hasSuffix("] watching") }
  }

  deinit {
    if let daemon { _ = daemon.kill() }
    try? FileManager.default.removeItem(at: runtime)
  }
}

/// `ferry watch` was never subscribed.
struct WatchDidNotStart: Error {}

/// `ferry daemon` did not answer `ferry status` in time: a failure, never a missing peer.
struct DaemonDidNotStart: Error, CustomStringConvertible {
  var log: String
  var description: String { "ferry daemon did not start; its log: \(log)" }
}

/// The system Python's GTK and Tk peers.
enum ScriptPeers {
  static func gtk(_ arguments: [String]) async throws -> [String] {
    [
      try await Python.gtk, "-u",
      Tools.peersDirectory.appendingPathComponent("gtk_clipboard.py").path,
    ] + arguments
  }
  static func tk(_ arguments: [String]) async throws -> [String] {
    [
      try await Python.tk, "-u",
      Tools.peersDirectory.appendingPathComponent("tk_clipboard.py").path,
    ] + arguments
  }
}

/// The system Python, once it is known to have the module a peer script imports; each check
/// runs once per test process, on a thread of its own.
///
/// - Throws: ``PeerUnavailable`` naming the package to install.
enum Python {
  /// The check of an installed module failed otherwise than by its absence.
  struct PythonCheckFailed: Error, CustomStringConvertible {
    var package: String
    var status: Int32
    var stderr: String
    var description: String { "checking \(package) ended with status \(status): \(stderr)" }
  }

  /// With python3-gi and GTK 3.
  static var gtk: String {
    get async throws { try await gtkCheck.value }
  }
  /// With python3-gi and GTK 4 (for a Wayland peer on a desktop's compositor).
  static var gtk4: String {
    get async throws { try await gtk4Check.value }
  }
  /// With tkinter.
  static var tk: String {
    get async throws { try await tkCheck.value }
  }
  /// With PyQt5.
  static var qt: String {
    get async throws { try await qtCheck.value }
  }
  /// The interpreter alone.
  static var plain: String {
    get throws {
      guard let python = Peers.systemPython else {
        throw PeerUnavailable(program: "/usr/bin/python3")
      }
      return python
    }
  }

  private static let gtkCheck = Task {
    try await check(
      "python3-gi with GTK 3 (gir1.2-gtk-3.0)",
      ["import gi", "gi.require_version('Gtk', '3.0')", "from gi.repository import Gtk"])
  }
  private static let gtk4Check = Task {
    try await check(
      "python3-gi with GTK 4 (gir1.2-gtk-4.0)",
      ["import gi", "gi.require_version('Gtk', '4.0')", "from gi.repository import Gtk"])
  }
  private static let tkCheck = Task { try await check("python3-tk", ["import tkinter"]) }
  private static let qtCheck = Task {
    try await check("python3-pyqt5", ["from PyQt5.QtGui import QGuiApplication"])
  }

  private static func check(_ package: String, _ statements: [String]) async throws -> String {
    let python = try plain
    let result = try await DetachedThread.run {
      try PeerProcess.run([python, "-c", statements.joined(separator: "; ")], display: nil)
    }
    // Only a module that is not there is a skip; a slow import under load, or any other
    // failure, is not (the check is kept for the whole process).
    if result.status != 0,
      result.stderrText.contains("ModuleNotFoundError") || result.stderrText.contains("ImportError")
        || result.stderrText.contains("ValueError: Namespace")
    {
      throw PeerUnavailable(program: package)
    }
    guard result.status == 0 else {
      throw PythonCheckFailed(package: package, status: result.status, stderr: result.stderrText)
    }
    return python
  }
}

/// Waits, off the pool, for a started peer's output to contain `text`.
func waitForOutput(_ peer: PeerProcess, _ text: String, timeout: Duration = .seconds(15)) async
  -> Bool
{
  (try? await DetachedThread.run { peer.waitForOutput(text, timeout: timeout) }) ?? false
}

/// Hex of UTF-8 text, as the script peers print it.
func hex(_ text: String) -> String { Data(text.utf8).map { String(format: "%02x", $0) }.joined() }
