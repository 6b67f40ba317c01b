import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A desktop's compositor running for a ``DesktopSession``: `dbus-run-session -- COMPOSITOR …
/// KEEPER` in a directory of its own, where KEEPER, the command the compositor runs once it is
/// up, writes the environment the compositor gave it (`WAYLAND_DISPLAY`, `DISPLAY`,
/// `XAUTHORITY`, `DBUS_SESSION_BUS_ADDRESS`) to a file and waits until the session stops: Mutter
/// exits when its command exits, so the keeper stays until told (a line on its FIFO).
///
/// The compositor leads a process group of its own (`TestChild`), which holds dbus-daemon,
/// Xwayland and Mutter's command; KWin starts its command detached (a session of its own), so
/// the keeper registers its own group with ``ProcessKeeper`` too.
final class DesktopCompositor: Sendable {
  /// The session's directory: `runtime` (`XDG_RUNTIME_DIR`, 0700), `home`, `tmp`, `keeper`,
  /// `stop` (the keeper's FIFO), `environment`, `compositor.log`.
  let directory: String
  /// The `dbus-run-session` process, leader of the compositor's group.
  let process: TestChild
  /// The environment the compositor gave its command.
  let exported: [String: String]
  /// The keeper's process group (KWin's detached command), ended with the compositor's.
  let keeperGroup: Int32?
  /// How long the start took: from the spawn to the environment file.
  let startup: Duration
  /// The compositor starts its command detached and does not exit with it (KWin).
  let detachesItsCommand: Bool

  var logPath: String { "\(directory)/compositor.log" }

  /// The compositor's standard output and error so far.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Makes a session directory under /tmp (`ferry-<name>-XXXXXX`) with its `runtime`,
  /// `home` and `tmp`, the keeper script and its FIFO.
  static func makeDirectory(_ name: String) throws -> String {
    var template = Array("/tmp/ferry-\(name)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw DesktopSessionError(
        message: "mkdtemp in /tmp failed: \(String(cString: strerror(errno)))")
    }
    let directory = String(cString: made)
    do {
      try makeDirectories(in: directory)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
    return directory
  }

  private static func makeDirectories(in directory: String) throws {
    guard chmod(directory, 0o755) == 0 else {
      throw DesktopSessionError(message: "chmod \(directory): \(String(cString: strerror(errno)))")
    }
    for (name, mode) in [("runtime", 0o700), ("home", 0o700), ("tmp", 0o1777)] {
      let path = "\(directory)/\(name)"
      guard mkdir(path, mode_t(mode)) == 0, chmod(path, mode_t(mode)) == 0 else {
        throw DesktopSessionError(message: "mkdir \(path): \(String(cString: strerror(errno)))")
      }
    }
    guard mkfifo("\(directory)/stop", 0o600) == 0 else {
      throw DesktopSessionError(message: "mkfifo: \(String(cString: strerror(errno)))")
    }
    // `$$` is the shell's pid, and `read` a builtin: the keeper is one process, which stays
    // until a line (or the end of a writer) arrives on the FIFO.
    let keeper = """
      #!/bin/sh
      # FerryTestSupport.DesktopSession: reports the environment the compositor gave its
      # command, then waits until the session stops.
      echo $$ > "\(directory)/keeper.pid.part" && mv "\(directory)/keeper.pid.part" "\(directory)/keeper.pid"
      env -0 > "\(directory)/environment.part" && mv "\(directory)/environment.part" "\(directory)/environment"
      read -r line < "\(directory)/stop"

      """
    let path = "\(directory)/keeper"
    try Data(keeper.utf8).write(to: URL(fileURLWithPath: path))
    guard chmod(path, 0o755) == 0 else {
      throw DesktopSessionError(message: "chmod \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// The environment a compositor starts with: nothing of the test process's but Scripts/test's
  /// mark; the session's `HOME`, `XDG_RUNTIME_DIR` and `TMPDIR`, plus `extra`.
  static func environment(in directory: String, _ extra: [String: String]) -> [String: String] {
    var environment = [
      "PATH": "/usr/local/bin:/usr/bin:/bin",
      "HOME": "\(directory)/home",
      "XDG_RUNTIME_DIR": "\(directory)/runtime",
      "TMPDIR": "\(directory)/tmp",
      "LANG": "C.UTF-8",
    ]
    // Scripts/test's mark: a compositor a run left behind is then named and fails the run.
    if let mark = ProcessInfo.processInfo.environment["FERRY_TEST_RUN"] {
      environment["FERRY_TEST_RUN"] = mark
    }
    environment.merge(extra) { $1 }
    return environment
  }

  /// Starts `dbus-run-session -- arguments…` (the keeper among `arguments`, at
  /// `"\(directory)/keeper"`) and waits until the keeper has written the environment.
  ///
  /// - Parameters:
  ///   - passing: Descriptors the compositor gets as 3, 4, ….
  ///   - detachesItsCommand: The compositor starts its command in a session of its own and does
  ///     not exit when it ends (KWin), rather than in its group, exiting with it (Mutter).
  /// - Throws: ``DesktopSessionError`` when the compositor ends, or the keeper does not
  ///   report, within 60 s.
  init(
    directory: String, dbusRunSession: String, arguments: [String],
    environment: [String: String], passing: [Int32] = [], detachesItsCommand: Bool
  ) throws {
    self.directory = directory
    self.detachesItsCommand = detachesItsCommand
    let logPath = "\(directory)/compositor.log"
    guard FileManager.default.createFile(atPath: logPath, contents: nil),
      let log = FileHandle(forWritingAtPath: logPath)
    else { throw DesktopSessionError(message: "cannot create \(logPath)") }
    defer { try? log.close() }
    let began = ContinuousClock.now
    let process = try TestChild.start(
      path: dbusRunSession, arguments: ["--"] + arguments, environment: environment,
      standardOutput: .descriptor(log.fileDescriptor),
      standardError: .descriptor(log.fileDescriptor), passing: passing)
    self.process = process

    let file = "\(directory)/environment"
    let reported = Deadline.wait(for: .seconds(60)) {
      !process.isRunning || FileManager.default.fileExists(atPath: file)
    }
    startup = ContinuousClock.now - began
    var keeper: Int32?
    if let text = try? String(contentsOfFile: "\(directory)/keeper.pid", encoding: .utf8),
      let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      keeper = pid
    }
    keeperGroup = detachesItsCommand ? keeper.flatMap(Self.processGroup(of:)) : nil
    if let keeperGroup { ProcessKeeper.keep(groupOf: keeperGroup) }
    guard reported, process.isRunning, let data = FileManager.default.contents(atPath: file) else {
      let failure = DesktopSessionError(
        message:
          "\(arguments.first ?? "the compositor") "
          + (process.isRunning ? "ran no command within 60 s" : "ended as it started")
          + "; its log:\n\((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
      Self.end(process, keeperGroup: keeperGroup, directory: directory, waitsForExit: false)
      throw failure
    }
    exported = Self.parseEnvironment(data)
  }

  /// `env -0`'s output: `NAME=value` records ended by a zero byte.
  static func parseEnvironment(_ data: Data) -> [String: String] {
    var variables: [String: String] = [:]
    for record in data.split(separator: 0) {
      let text = String(decoding: record, as: UTF8.self)
      guard let equals = text.firstIndex(of: "=") else { continue }
      variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    return variables
  }

  /// The process group of `pid`, while it runs.
  private static func processGroup(of pid: Int32) -> Int32? {
    status(of: "\(pid)")?.group
  }

  /// The state (`R`, `S`, `Z`, …) and process group of process `pid` (`/proc/<pid>/stat`).
  private static func status(of pid: String) -> (state: Substring, group: Int32)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return nil }
    // After the command's closing parenthesis: state, parent, process group, …
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 2, let group = Int32(fields[2]) else { return nil }
    return (fields[0], group)
  }

  /// Ends the compositor: tells the keeper to stop and, for a compositor that exits with its
  /// command (Mutter, which then cleans up its X displays' lock files), waits up to 5 s for
  /// that; then ends what is left of the compositor's group and the keeper's with SIGTERM
  /// (KWin, its Xwayland; whatever outlived Mutter), and with SIGKILL after 10 s more.
  func end() {
    Self.end(
      process, keeperGroup: keeperGroup, directory: directory, waitsForExit: !detachesItsCommand)
  }

  private static func end(
    _ process: TestChild, keeperGroup: Int32?, directory: String, waitsForExit: Bool
  ) {
    // Never blocks: with no keeper reading, the open fails (ENXIO).
    let stop = open("\(directory)/stop", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    if stop >= 0 {
      _ = write(stop, "stop\n", 5)
      close(stop)
    }
    let leader = process.processIdentifier
    let groups = [leader] + (keeperGroup.map { [$0] } ?? [])
    if waitsForExit { _ = Deadline.wait(for: .seconds(5)) { !process.isRunning } }
    // dbus-run-session ends at SIGTERM at once, and KWin after it, still writing its
    // configuration into the session's home: the wait is for every process of the groups.
    for group in groups { kill(-group, SIGTERM) }
    if !Deadline.wait(for: .seconds(10), { groups.allSatisfy(isEmpty(group:)) }) {
      for group in groups { kill(-group, SIGKILL) }
      _ = Deadline.wait(for: .seconds(10)) { groups.allSatisfy(isEmpty(group:)) }
    }
    process.waitUntilExit()
  }

  /// Whether no process of process group `group` runs (a zombie not yet reaped does not
  /// count).
  private static func isEmpty(group: Int32) -> Bool {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return !entries.contains { entry in
      guard Int32(entry) != nil, let status = status(of: entry) else { return false }
      return status.state != "Z" && status.group == group
    }
  }
}
