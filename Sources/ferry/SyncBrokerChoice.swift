import FerryClient
import FerryCommandLine
import FerryProtocol
import FerrySystem

#if canImport(Glibc)
  import Glibc
#endif

/// Which broker the remote end of `ferry sync --stdio` relays to (docs/SYNC.md): the one
/// `--socket` names, else `--display`'s, else the one the environment names (`FERRY_SOCKET`,
/// `DISPLAY`, `WAYLAND_DISPLAY`, when set and answering), else the only one running in the
/// runtime directory, else the headless one, started when none runs — so on a server with no
/// display, `pbcopy` and `pbpaste` there share the other machine's clipboard.
enum SyncBrokerChoice {
  /// A broker that answers, and its name for the hello (`display-92`, `headless`).
  struct Choice {
    var socket: SocketPath
    var name: String
  }

  /// Picks the broker.
  ///
  /// - Parameter startHeadless: Starts a headless broker (the daemon, detached).
  /// - Throws: One line naming what answers and what not.
  static func choose(
    socket: String?, display: String?, environment: [String: String],
    startHeadless: () throws -> Void
  ) throws -> Choice {
    if let socket {
      let path = SocketPath(path: socket)
      guard answers(path) else { throw CommandFailure.noBroker("at \(socket)") }
      return Choice(socket: path, name: name(of: path))
    }
    var bare = environment
    for variable in ["FERRY_SOCKET", "DISPLAY", "WAYLAND_DISPLAY"] { bare[variable] = nil }
    if let display {
      bare["DISPLAY"] = display
      let path = SocketPath.resolve(environment: bare)
      guard answers(path) else { throw CommandFailure.noBroker("for display \(display)") }
      return Choice(socket: path, name: name(of: path))
    }
    let named = ["FERRY_SOCKET", "DISPLAY", "WAYLAND_DISPLAY"].contains {
      !(environment[$0] ?? "").isEmpty
    }
    if named {
      let path = SocketPath.resolve(environment: environment)
      if answers(path) { return Choice(socket: path, name: name(of: path)) }
    }
    let headless = SocketPath.resolve(environment: bare)
    let live = sockets(in: headless.directory).filter(answers)
    if live.count == 1 { return Choice(socket: live[0], name: name(of: live[0])) }
    if live.count > 1 {
      if let found = live.first(where: { $0.path == headless.path }) {
        return Choice(socket: found, name: name(of: found))
      }
      throw CommandFailure(
        "several brokers answer (\(live.map(name).joined(separator: ", "))): --display or --socket picks one",
        status: .noDisplayNoBroker)
    }
    try startHeadless()
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      if answers(headless) { return Choice(socket: headless, name: name(of: headless)) }
      var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
      nanosleep(&pause, nil)
    }
    throw CommandFailure.noBroker("(a headless one was started and did not answer in 10 s)")
  }

  /// Whether a broker answers at `path`.
  static func answers(_ path: SocketPath) -> Bool {
    guard let client = try? BrokerClient.connect(to: path, timeout: .seconds(3)) else {
      return false
    }
    client.close()
    return true
  }

  private static func name(of path: SocketPath) -> String {
    path.fileName.hasSuffix(".sock") ? String(path.fileName.dropLast(5)) : path.fileName
  }

  /// The sockets in `directory`.
  private static func sockets(in directory: String) -> [SocketPath] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var found: [SocketPath] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name.hasSuffix(".sock") { found.append(SocketPath(directory: directory, fileName: name)) }
    }
    return found.sorted { $0.fileName < $1.fileName }
  }
}

extension CommandFailure {
  /// "no broker answers …", status 3.
  static func noBroker(_ where: String) -> CommandFailure {
    CommandFailure("no broker answers \(`where`)", status: .noDisplayNoBroker)
  }
}
