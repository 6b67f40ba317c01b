import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// OpenSSH's `sshd` on loopback, for the `ferry sync` tests: a real server and the real
/// client, in a directory of the test's own (docs/TESTING.md, "ferry sync").
///
/// The server listens on 127.0.0.1 at a free port with a host key made for it, and logs in
/// the test's user by key only, from an `authorized_keys` of its own. Each "machine" the
/// test reaches is a `Host` alias of an `ssh_config` of its own with a key of its own, whose
/// line in `authorized_keys` says what it runs — a forced command (`restrict,command="…"`),
/// which is how the other machine's environment (its runtime directory, its display) is
/// given, sshd passing none of the client's — or the user's shell.
///
/// ```swift
/// let ssh = try await LoopbackSSH.start()
/// try await ssh.addHost("machine-b", runs: "env DISPLAY=:92 /path/ferry sync --stdio")
/// // FERRY_SSH=ssh.sshCommand ferry sync machine-b
/// _ = await ssh.stop()
/// ```
///
/// The server's process group is ``ProcessKeeper``'s, as every peer's; the processes of each
/// session (sshd starts each in a session of its own) end with their connection, and
/// ``stop()`` ends any still running.
public final class LoopbackSSH: @unchecked Sendable {
  /// Where the keys, configurations and logs are.
  public let directory: URL
  /// The port the server listens on.
  public let port: Int
  private let server: PeerProcess
  private let lock = NSLock()
  private var hosts: [String] = []

  /// The ssh command for `FERRY_SSH` or `--ssh`: `ssh -F DIR/ssh_config`. ssh takes `~/.ssh`
  /// from the password database, not `$HOME`, so the configuration is named.
  public var sshCommand: String { "ssh -F \(configuration.path)" }
  /// The client's configuration file, with a `Host` for each host added.
  public var configuration: URL { directory.appendingPathComponent("ssh_config") }
  /// The server's log (`-e`, `LogLevel VERBOSE`): each login, and the command it ran.
  public var log: String { server.errorSoFar }

  private init(directory: URL, port: Int, server: PeerProcess) {
    self.directory = directory
    self.port = port
    self.server = server
  }

  /// Makes the keys and starts the server.
  ///
  /// - Throws: ``PeerUnavailable`` when openssh-server or openssh-client is not installed,
  ///   ``LoopbackSSHError`` when the server does not start.
  public static func start() async throws -> LoopbackSSH {
    try await DetachedThread.run { try startBlocking() }
  }

  private static func startBlocking() throws -> LoopbackSSH {
    guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
      throw PeerUnavailable(program: "sshd (openssh-server)")
    }
    try Peers.require("ssh", "ssh-keygen")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-ssh-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // The privilege-separation directory sshd needs when it runs as root.
    try? FileManager.default.createDirectory(
      atPath: "/run/sshd", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    let hostKey = directory.appendingPathComponent("host_key")
    try makeKey(at: hostKey)
    try Data().write(to: directory.appendingPathComponent("authorized_keys"))
    try Data().write(to: directory.appendingPathComponent("ssh_config"))
    chmod(directory.appendingPathComponent("ssh_config").path, 0o600)
    var lastLog = ""
    // A free port, as the kernel gives one; another process may take it before sshd binds
    // it, and sshd then exits: the next port.
    for _ in 0..<5 {
      let port = try freePort()
      let config = directory.appendingPathComponent("sshd_config")
      try Data(
        """
        ListenAddress 127.0.0.1
        Port \(port)
        HostKey \(hostKey.path)
        AuthorizedKeysFile \(directory.appendingPathComponent("authorized_keys").path)
        PidFile \(directory.appendingPathComponent("sshd.pid").path)
        UsePAM no
        StrictModes no
        PermitRootLogin prohibit-password
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        LogLevel VERBOSE

        """.utf8
      ).write(to: config)
      let server = try PeerProcess(["/usr/sbin/sshd", "-D", "-e", "-f", config.path], display: nil)
      let listening = "Server listening on 127.0.0.1 port \(port)."
      _ = Deadline.wait(for: .seconds(20)) {
        server.errorSoFar.contains(listening) || !server.process.isRunning
      }
      if server.errorSoFar.contains(listening) && server.process.isRunning {
        let known = try String(
          contentsOf: hostKey.appendingPathExtension("pub"), encoding: .utf8
        ).split(separator: " ").prefix(2).joined(separator: " ")
        try Data("[127.0.0.1]:\(port) \(known)\n".utf8).write(
          to: directory.appendingPathComponent("known_hosts"))
        return LoopbackSSH(directory: directory, port: port, server: server)
      }
      lastLog = server.kill().stderrText
      guard lastLog.contains("Address already in use") else { break }
    }
    try? FileManager.default.removeItem(at: directory)
    throw LoopbackSSHError(message: "sshd did not start: \(lastLog.suffix(600))")
  }

  /// What a host's key runs at login.
  public enum Login: Sendable {
    /// A forced command (`restrict,command="…"`): whatever the client asks for, this runs,
    /// with the client's command in `SSH_ORIGINAL_COMMAND`.
    case forced(String)
    /// The client's command, through the user's shell (`restrict`: no terminal, no
    /// forwarding).
    case shell
  }

  /// Adds the `Host` `alias`, reached with a key of its own that runs `login`.
  ///
  /// - Parameter hostKeyKnown: Whether the client knows the server's real host key; when
  ///   not, its known_hosts holds another key for the address, and ssh refuses the server.
  public func addHost(_ alias: String, login: Login, hostKeyKnown: Bool = true) async throws {
    try await DetachedThread.run { try self.addHostBlocking(alias, login: login, hostKeyKnown) }
  }

  /// Adds the `Host` `alias` whose key runs `command` whatever the client asks.
  public func addHost(_ alias: String, runs command: String) async throws {
    try await addHost(alias, login: .forced(command))
  }

  private func addHostBlocking(_ alias: String, login: Login, _ hostKeyKnown: Bool) throws {
    let key = directory.appendingPathComponent("id-\(alias)")
    try Self.makeKey(at: key)
    let publicKey = try String(contentsOf: key.appendingPathExtension("pub"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    var knownHosts = directory.appendingPathComponent("known_hosts")
    if !hostKeyKnown {
      let other = directory.appendingPathComponent("other-host-key-\(alias)")
      try Self.makeKey(at: other)
      let otherKey = try String(contentsOf: other.appendingPathExtension("pub"), encoding: .utf8)
        .split(separator: " ").prefix(2).joined(separator: " ")
      knownHosts = directory.appendingPathComponent("known_hosts-\(alias)")
      try Data("[127.0.0.1]:\(port) \(otherKey)\n".utf8).write(to: knownHosts)
    }
    let options: String
    switch login {
    case .forced(let command):
      let escaped = command.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"")
      options = "restrict,command=\"\(escaped)\""
    case .shell:
      options = "restrict"
    }
    let user = String(cString: getpwuid(getuid()).pointee.pw_name)
    let host = """
      Host \(alias)
        HostName 127.0.0.1
        Port \(port)
        User \(user)
        IdentityFile \(key.path)
        IdentitiesOnly yes
        IdentityAgent none
        UserKnownHostsFile \(knownHosts.path)
        GlobalKnownHostsFile /dev/null
        StrictHostKeyChecking yes
        BatchMode yes
        ControlMaster no
        ControlPath none

      """
    try lock.withLock {
      guard !hosts.contains(alias) else {
        throw LoopbackSSHError(message: "the host \(alias) was added already")
      }
      hosts.append(alias)
      try Self.append("\(options) \(publicKey) \(alias)\n", to: "authorized_keys", in: directory)
      try Self.append(host, to: "ssh_config", in: directory)
    }
  }

  /// Stops the server, and every process still running in its sessions; returns its log.
  @discardableResult
  public func stop() async -> String {
    let server = self.server
    let directory = self.directory
    return
      (try? await DetachedThread.run { () -> String in
        // The sessions' processes — each login's sshd, its shell, the command — outlive the
        // listener, which sshd does not wait for: ended first, children before parents.
        let sessions = Self.descendants(of: server.pid)
        for pid in sessions.reversed() { kill(pid, SIGTERM) }
        if !Deadline.wait(for: .seconds(5), { sessions.allSatisfy { !Self.isAlive($0) } }) {
          for pid in sessions where Self.isAlive(pid) { kill(pid, SIGKILL) }
        }
        let log = server.kill().stderrText
        try? FileManager.default.removeItem(at: directory)
        return log
      }) ?? ""
  }

  deinit {
    if server.process.isRunning { _ = server.kill() }
  }

  // MARK: Helpers

  private static func makeKey(at path: URL) throws {
    let result = try PeerProcess.run(
      ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ferry-test", "-f", path.path],
      display: nil)
    guard result.status == 0 else {
      throw LoopbackSSHError(message: "ssh-keygen failed: \(result.stderrText)")
    }
  }

  private static func append(_ text: String, to name: String, in directory: URL) throws {
    let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(name))
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
  }

  /// A port nothing listens on now, as the kernel picks one for a socket bound to port 0.
  private static func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw LoopbackSSHError(message: "socket: errno \(errno)") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
      }
    }
    guard bound else { throw LoopbackSSHError(message: "bind: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Every process descended from `pid`, parents before their children.
  static func descendants(of pid: Int32) -> [Int32] {
    var children: [Int32: [Int32]] = [:]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
      guard let child = Int32(entry), let parent = parentOf(child) else { continue }
      children[parent, default: []].append(child)
    }
    var found: [Int32] = []
    var queue = children[pid] ?? []
    while !queue.isEmpty {
      let next = queue.removeFirst()
      found.append(next)
      queue += children[next] ?? []
    }
    return found
  }

  /// The parent of `pid` (`/proc/PID/stat`'s fourth field, after the name in parentheses).
  private static func parentOf(_ pid: Int32) -> Int32? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? Int32(fields[1]) : nil
  }

  /// Whether the process `pid` runs (a zombie does not).
  public static func isAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
  }
}

/// The loopback ssh server could not be set up.
public struct LoopbackSSHError: Error, CustomStringConvertible {
  public var message: String
  public init(message: String) { self.message = message }
  public var description: String { message }
}
