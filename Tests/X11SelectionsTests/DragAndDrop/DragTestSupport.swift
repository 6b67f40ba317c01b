import FerryTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// Drags move the one pointer of a display, so the drag-and-drop suite has an Xvfb of its own
// (no other suite's windows or pointer moves), and runs its drags one at a time.

/// The drag-and-drop suite's own X server: Xvfb on a free display, started on first use and
/// gone when the test process ends (``ProcessKeeper`` ends it; `xdotool -`, reading a pipe
/// only this process holds, keeps a connection open between tests).
final class DragServer: Sendable {
  let name: String

  private static let shared = OnceOffThePool { try DragServer() }

  /// The server, started off the pool on first use; throws `PeerUnavailable` when Xvfb or
  /// xdotool is missing.
  static func start() async throws -> DragServer {
    try await shared.value
  }

  nonisolated(unsafe) private static var keeper: (TestChild, Pipe)?

  private init() throws {
    guard let xvfb = Peers.path(of: "Xvfb") else { throw PeerUnavailable(program: "Xvfb") }
    guard let xdotool = Peers.path(of: "xdotool") else { throw PeerUnavailable(program: "xdotool") }
    let base = 300 + Int(getpid() % 300)
    for number in (0..<50).map({ base + $0 }) {
      guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"),
        !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      else { continue }
      let server = try Child.start(
        [
          xvfb, ":\(number)", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-terminate",
          "-noreset",
        ],
        display: nil)
      let up = Deadline.wait(for: .seconds(10)) {
        !server.isRunning || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      }
      guard up, server.isRunning else {
        server.stop()
        continue
      }
      // The keeper holds a connection open between tests.
      let input = Pipe()
      let keeper = try TestChild.start(
        path: xdotool, arguments: ["-"],
        environment: ["DISPLAY": ":\(number)", "PATH": "/usr/bin:/bin"],
        standardInput: .descriptor(input.fileHandleForReading.fileDescriptor))
      try? input.fileHandleForReading.close()
      Self.keeper = (keeper, input)
      name = ":\(number)"
      let answering = Deadline.wait(for: .seconds(10)) {
        (try? Child.run(["xdotool", "getmouselocation"], display: ":\(number)").status) == 0
      }
      guard answering else { throw DragFixtureError(message: "Xvfb on :\(number) did not answer") }
      return
    }
    throw DragFixtureError(message: "no free display for the drag-and-drop Xvfb")
  }
}

/// A child process with both output streams captured as they come, so a test can wait for a
/// line on either: `ferry drag` says it is ready on standard error, peers on standard output.
/// A ``PeerProcess`` with the text views the drag-and-drop tests read.
final class Child: Sendable {
  struct Result: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  let peer: PeerProcess

  private init(_ peer: PeerProcess) { self.peer = peer }

  /// Starts `arguments` (program first, found on `PATH` unless absolute) on `display`.
  ///
  /// - Throws: ``PeerUnavailable`` when the program is not installed.
  static func start(_ arguments: [String], display: String?) throws -> Child {
    // GTK without the accessibility bus: no D-Bus waits.
    Child(try PeerProcess(arguments, display: display, environment: ["NO_AT_BRIDGE": "1"]))
  }

  /// Runs a program to its end.
  @available(
    *, noasync,
    message: "blocks a thread of the concurrency pool; call it inside DetachedThread.run"
  )
  static func run(_ arguments: [String], display: String?, timeout: Duration = .seconds(30)) throws
    -> Result
  {
    try start(arguments, display: display).finish(timeout: timeout)
  }

  var isRunning: Bool { peer.process.isRunning }
  var pid: Int32 { peer.pid }
  var stdout: String { peer.outputSoFar }
  var stderr: String { peer.errorSoFar }

  /// The standard output's lines that are JSON objects.
  var jsonLines: [[String: Any]] {
    stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// Waits until `condition` holds or the process ends.
  func wait(for limit: Duration = .seconds(15), _ condition: (Child) -> Bool) async -> Bool {
    await Deadline.wait(for: limit) { condition(self) || !self.isRunning } && condition(self)
  }

  /// Waits for the process to end, killing it after `timeout`.
  @available(
    *, noasync, message: "blocks a thread of the concurrency pool; await finished(timeout:)"
  )
  func finish(timeout: Duration = .seconds(20)) -> Result {
    Result(peer.finish(timeout: timeout))
  }

  /// The async form of ``finish(timeout:)``.
  func finished(timeout: Duration = .seconds(20)) async -> Result {
    try! await DetachedThread.run { self.finish(timeout: timeout) }
  }

  /// Stops the process (SIGTERM) and reaps it.
  @discardableResult
  func stop() -> Result {
    Result(peer.kill())
  }
}

extension Child.Result {
  init(_ result: PeerProcess.Result) {
    self.init(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
  }
}

/// Where things are found.
enum DragPeers {
  /// The built `ferry`: next to the running test bundle, else under `.build/debug`.
  static var ferry: String {
    get throws {
      var candidates: [String] = []
      if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(
          URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("ferry").path
        )
      }
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      candidates.append(root.appendingPathComponent(".build/debug/ferry").path)
      guard
        let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
      else {
        throw FerryNotBuilt(looked: candidates)
      }
      return found
    }
  }

  private static let gtkCheck = OnceOffThePool { () throws -> String in
    guard let python = Peers.systemPython else {
      throw PeerUnavailable(program: "/usr/bin/python3")
    }
    let check = "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"
    guard (try Child.run([python, "-c", check], display: nil)).status == 0 else {
      throw PeerUnavailable(program: "python3-gi with GTK 3 (gir1.2-gtk-3.0)")
    }
    return python
  }

  /// Starts a GTK peer script from `Tests/Peers/`; throws `PeerUnavailable` when GTK is missing.
  static func gtk(_ script: String, _ arguments: [String], display: String) async throws -> Child {
    let python = try await gtkCheck.value
    return try Child.start([python, "-u", PeerSources.path(script)] + arguments, display: display)
  }

  private static let silentTarget = OnceOffThePool { () throws -> String in
    guard Peers.path(of: "cc") != nil else { throw PeerUnavailable(program: "cc") }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-dnd-silent-\(getpid())"
    ).path
    let result = try Child.run(
      ["cc", "-o", output, PeerSources.path("dnd_silent_target.c"), "-lX11"], display: nil)
    guard result.status == 0 else {
      throw DragFixtureError(message: "cannot compile dnd_silent_target.c: \(result.stderr)")
    }
    return output
  }

  /// The compiled `dnd_silent_target`.
  static func silent() async throws -> String {
    try await silentTarget.value
  }
}

/// The suite's server or a peer could not be set up.
struct DragFixtureError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

struct FerryNotBuilt: Error, CustomStringConvertible {
  var looked: [String]
  var description: String {
    "the ferry executable is not built (looked at \(looked.joined(separator: ", ")))"
  }
}

/// A drag as a person makes it, driven by xdotool (brief §6.7): press on the source, move past
/// the threshold, cross to the target, at least two moves over it, release; every step 0.1 s or
/// more apart. The pauses are the protocol's pacing (a release before the target's first
/// answer is a no-drop in GTK), not a wait for a race.
enum Drag {
  static func steps(from start: (x: Int, y: Int), to end: (x: Int, y: Int), escape: Bool = false)
    -> [String]
  {
    var steps = [
      "mousemove", "\(start.x)", "\(start.y)", "sleep", "0.2", "mousedown", "1", "sleep", "0.2",
    ]
    let path = [
      (start.x + 12, start.y + 10), (start.x + 30, start.y + 10),
      ((start.x + end.x) / 2, (start.y + end.y) / 2),
      (end.x - 20, end.y - 10), (end.x, end.y), (end.x + 5, end.y + 5),
    ]
    for (x, y) in path { steps += ["mousemove", "\(x)", "\(y)", "sleep", "0.2"] }
    if escape { steps += ["key", "Escape", "sleep", "0.3"] }
    steps += ["sleep", "0.1", "mouseup", "1"]
    return steps
  }

  /// Performs the drag on `display`.
  static func perform(
    on display: String, from start: (x: Int, y: Int), to end: (x: Int, y: Int), escape: Bool = false
  )
    async throws
  {
    let steps = steps(from: start, to: end, escape: escape)
    let result = try await DetachedThread.run {
      try Child.run(["xdotool"] + steps, display: display)
    }
    #expect(result.status == 0, "xdotool failed: \(result.stderr)")
  }
}

/// The `ferry drag --verbose` line `entry N at X,Y WxH: label`, as a frame.
func entryFrame(_ number: Int, in stderr: String) -> (x: Int, y: Int, width: Int, height: Int)? {
  for line in stderr.split(separator: "\n") {
    guard let range = line.range(of: "entry \(number) at ") else { continue }
    let rest = line[range.upperBound...].prefix { $0 != ":" }
    let parts = rest.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "x" }).compactMap {
      Int($0)
    }
    if parts.count == 4 { return (parts[0], parts[1], parts[2], parts[3]) }
  }
  return nil
}
