import FerryProtocol
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One "machine" of a `ferry sync` test: an Xvfb of its own (none for a headless one) and
/// its own runtime, home, data, configuration and cache directories, with a broker on them
/// unless the test wants none. The `Host` alias `name` of the test's ssh configuration logs
/// into it.
final class SyncMachine: Sendable {
  let name: String
  let xvfb: XvfbServer?
  let fixture: BrokerFixture

  init(name: String, xvfb: XvfbServer?, fixture: BrokerFixture) {
    self.name = name
    self.xvfb = xvfb
    self.fixture = fixture
  }

  /// What a login into this machine runs: its ferry's `sync --stdio` with its environment
  /// (sshd passes none of the client's), after `prefix` (`echo hi;`).
  func remoteCommand(prefix: String = "") throws -> String {
    var environment = fixture.environment
    if let xvfb { environment["DISPLAY"] = xvfb.name }
    // The run's mark (Scripts/test lists whatever still carries it when the run ends) and a
    // sanitizer's options reach the far side too.
    for (key, value) in ProcessInfo.processInfo.environment
    where key.hasPrefix("FERRY_TEST") || key == "FERRY_SANITIZER" || key.hasSuffix("SAN_OPTIONS") {
      environment[key] = value
    }
    let assignments = environment.sorted { $0.key < $1.key }.map { "'\($0.key)=\($0.value)'" }
    return prefix + "exec env " + assignments.joined(separator: " ") + " "
      + (try Tools.path("ferry")) + " sync --stdio"
  }

  // MARK: The broker's state

  /// `ferry status --json`, decoded.
  func status() async throws -> StatusResponse {
    let result = try await fixture.run(["ferry", "status", "--json"])
    guard result.status == 0 else {
      throw SyncTestFailure("ferry status on \(name) failed: \(result.stderrText)")
    }
    return try JSONDecoder().decode(StatusResponse.self, from: result.stdout)
  }

  /// The general pasteboard's state.
  func general() async throws -> PasteboardState {
    guard let board = try await status().pasteboards.first(where: { $0.pasteboard == "general" })
    else { throw SyncTestFailure("no general pasteboard on \(name)") }
    return board
  }

  /// The sync links the broker reports (`[]` when none).
  func links() async throws -> [SyncLinkStatus] { try await status().sync ?? [] }

  /// What the machine holds, for a failure's message: the general pasteboard's state, the
  /// links, and what `xclip -o` gives.
  func report() async -> String {
    let board = (try? await general()).map { "\($0)" } ?? "no broker"
    let links = (try? await links()).map { "\($0)" } ?? "-"
    let text = (try? await xclipPaste().stdoutText).map { $0.debugDescription } ?? "-"
    return "\(name): general \(board); links \(links); xclip -o \(text)"
  }

  /// The general pasteboard's change count, or -1 when the broker does not answer.
  func changeCount() async -> Int { (try? await general().changeCount) ?? -1 }

  // MARK: The X clipboard

  /// Copies `data` with `xclip -i` as `target`, and returns once the broker holds the copy
  /// (its change count moved). The xclip stays serving until another owner takes over.
  @discardableResult
  func xclipCopy(_ data: Data, target: String? = nil, in world: SyncWorld) async throws
    -> PeerProcess
  {
    let before = await changeCount()
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"] + (target.map { ["-t", $0] } ?? []),
      input: data)
    world.keep(xclip)
    guard await Deadline.wait(for: .seconds(30), { await self.changeCount() > before }) else {
      throw SyncTestFailure("\(name)'s broker did not take xclip's copy: \(xclip.errorSoFar)")
    }
    return xclip
  }

  /// `xclip -o` of the clipboard as `target` (the text when `nil`).
  func xclipPaste(target: String? = nil) async throws -> PeerProcess.Result {
    try await fixture.run(
      ["xclip", "-o", "-selection", "clipboard"] + (target.map { ["-t", $0] } ?? []))
  }

  /// Waits until `xclip -o` as `target` gives `data`, byte for byte.
  func waitForClipboard(_ data: Data, target: String? = nil, for limit: Duration = .seconds(30))
    async -> Bool
  {
    await Deadline.wait(for: limit) {
      (try? await self.xclipPaste(target: target))?.stdout == data
    }
  }
}

/// The machines of one test, the loopback sshd that links them and every `ferry sync` it
/// started: ``with(_:headless:_:)`` stops them all, however the test ends.
final class SyncWorld: @unchecked Sendable {
  let ssh: LoopbackSSH
  let machines: [SyncMachine]
  private let lock = NSLock()
  private var started: [PeerProcess] = []
  private var extraDaemons: [Int32] = []

  private init(ssh: LoopbackSSH, machines: [SyncMachine]) {
    self.ssh = ssh
    self.machines = machines
  }

  /// Runs `body` with machines named `names`, each a `Host` of ssh that runs its ferry's
  /// `sync --stdio`; those in `headless` have no display and no broker running. Stops every
  /// process afterwards, and checks that nothing of the links is left.
  static func with(
    _ names: [String], headless: Set<String> = [],
    _ body: (SyncWorld) async throws -> Void
  ) async throws {
    try Peers.require("xclip")
    let ssh = try await LoopbackSSH.start()
    var machines: [SyncMachine] = []
    do {
      for name in names {
        let xvfb = headless.contains(name) ? nil : try await XvfbServer.disposable()
        let fixture = try await BrokerFixture(display: xvfb?.name, start: xvfb != nil)
        let machine = SyncMachine(name: name, xvfb: xvfb, fixture: fixture)
        machines.append(machine)
        try await ssh.addHost(name, runs: try machine.remoteCommand())
      }
    } catch {
      await SyncWorld(ssh: ssh, machines: machines).stop()
      throw error
    }
    let world = SyncWorld(ssh: ssh, machines: machines)
    do {
      try await body(world)
    } catch {
      await world.stop()
      throw error
    }
    await world.stop()
  }

  subscript(_ name: String) -> SyncMachine {
    machines.first { $0.name == name }!
  }

  /// Has `process` ended when the test's machines are stopped.
  func keep(_ process: PeerProcess) {
    lock.withLock { started.append(process) }
  }

  /// Has the broker `pid`, which no fixture started (a headless one a remote end started),
  /// ended with the machines — and with the test process, however that ends.
  func keepDaemon(_ pid: Int32) {
    ProcessKeeper.keep(groupOf: pid)  // it leads a session, and so a group, of its own
    lock.withLock { extraDaemons.append(pid) }
  }

  /// Added to a machine's environment for `ferry sync`: the ssh command with the test's
  /// configuration, and `sshOptions` after it (`-v`).
  func environment(of machine: SyncMachine, sshOptions: String = "") -> [String: String] {
    ["FERRY_SSH": ssh.sshCommand + (sshOptions.isEmpty ? "" : " " + sshOptions)]
  }

  /// Starts `ferry sync HOSTS --verbose ARGUMENTS` on `machine`, and returns once each link
  /// says `connected`.
  @discardableResult
  func startSync(
    on machine: SyncMachine, to hosts: [String], _ arguments: [String] = [],
    sshOptions: String = ""
  ) async throws -> PeerProcess {
    let sync = try startSyncUnchecked(on: machine, to: hosts, arguments, sshOptions: sshOptions)
    let connected = await Deadline.wait(for: .seconds(40)) { () async -> Bool in
      guard sync.process.isRunning, let links = try? await machine.links() else { return false }
      return hosts.allSatisfy { host in
        links.contains { $0.host == host && $0.state == "connected" }
      }
    }
    guard connected else {
      let links = (try? await machine.links()) ?? []
      throw SyncTestFailure(
        "ferry sync \(hosts) on \(machine.name) did not connect: \(links.map { "\($0.host) \($0.state) \($0.error ?? "")" }); its stderr: \(sync.errorSoFar.suffix(1500)); sshd: \(ssh.log.suffix(1500))"
      )
    }
    return sync
  }

  /// Starts `ferry sync HOSTS --verbose ARGUMENTS` on `machine` without waiting.
  func startSyncUnchecked(
    on machine: SyncMachine, to hosts: [String], _ arguments: [String] = [],
    sshOptions: String = ""
  ) throws -> PeerProcess {
    let command = [try Tools.path("ferry"), "sync"] + hosts + ["--verbose"] + arguments
    let sync = try PeerProcess(
      command, display: machine.xvfb?.name,
      environment: machine.fixture.environment.merging(
        environment(of: machine, sshOptions: sshOptions)
      ) { $1 })
    keep(sync)
    return sync
  }

  /// Runs `ferry sync ARGUMENTS` on `machine` to its end (`--once`, `--check`).
  func runSync(on machine: SyncMachine, _ arguments: [String]) async throws -> PeerProcess.Result {
    try await machine.fixture.run(
      ["ferry", "sync"] + arguments, timeout: .seconds(60), environment: environment(of: machine))
  }

  /// Stops the links first (their ssh ends with them, and each session at the far end),
  /// then sshd, the peers, every broker and display.
  func stop() async {
    let (processes, daemons) = lock.withLock { (started, extraDaemons) }
    for process in processes.reversed() { _ = await process.stopped() }
    _ = await ssh.stop()
    for pid in daemons {
      kill(pid, SIGTERM)
      if !(await Deadline.wait(for: .seconds(10)) { !LoopbackSSH.isAlive(pid) }) {
        kill(pid, SIGKILL)
      }
    }
    for machine in machines {
      _ = try? await machine.fixture.stop()
      if let xvfb = machine.xvfb { try? await DetachedThread.run { xvfb.stop() } }
    }
    // Nothing that ran on a machine is left: no ssh, no far end, no broker a far end started.
    let runtimes = machines.map { "XDG_RUNTIME_DIR=\($0.fixture.runtime.path)" }
    if !(await Deadline.wait(for: .seconds(10)) { Self.processes(carrying: runtimes).isEmpty }) {
      let left = Self.processes(carrying: runtimes)
      Issue.record("left running: \(left.map { "\($0.pid) \($0.command)" })")
      for process in left { kill(process.pid, SIGKILL) }
    }
  }

  /// The processes whose environment holds one of `assignments`, with their command lines.
  static func processes(carrying assignments: [String]) -> [(pid: Int32, command: String)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).compactMap { pid in
      guard pid != getpid(), LoopbackSSH.isAlive(pid),
        let environ = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
      else { return nil }
      let variables = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      guard variables.contains(where: assignments.contains) else { return nil }
      let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
      return (pid, String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self))
    }
  }
}

/// A step of a sync test that could not be taken.
struct SyncTestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A PNG of random pixels, which no compression makes smaller: its image data in stored
/// (uncompressed) deflate blocks.
enum NoisePNG {
  static func make(width: Int, height: Int, seed: UInt64) -> Data {
    var generator = SplitMix64(seed: seed)
    var raw = Data(capacity: height * (1 + width * 3))
    for _ in 0..<height {
      raw.append(0)  // filter: none
      var row = [UInt8](repeating: 0, count: width * 3)
      var index = 0
      while index < row.count {
        let bits = generator.next()
        for shift in stride(from: 0, to: 64, by: 8) where index < row.count {
          row[index] = UInt8(truncatingIfNeeded: bits >> UInt64(shift))
          index += 1
        }
      }
      raw.append(contentsOf: row)
    }
    // zlib: a header, stored blocks of at most 65,535 bytes, the Adler-32 of the data.
    var zlib = Data([0x78, 0x01])
    var offset = 0
    while offset < raw.count {
      let count = min(65_535, raw.count - offset)
      zlib.append(offset + count == raw.count ? 1 : 0)
      zlib.append(UInt8(count & 0xFF))
      zlib.append(UInt8(count >> 8))
      zlib.append(UInt8(~count & 0xFF))
      zlib.append(UInt8((~count >> 8) & 0xFF))
      zlib.append(raw[raw.startIndex + offset..<raw.startIndex + offset + count])
      offset += count
    }
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    zlib.appendBigEndian(b << 16 | a)
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var header = Data()
    header.appendBigEndian(UInt32(width))
    header.appendBigEndian(UInt32(height))
    header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
    png.appendChunk("IHDR", header)
    png.appendChunk("IDAT", zlib)
    png.appendChunk("IEND", Data())
    return png
  }
}

extension Data {
  fileprivate mutating func appendBigEndian(_ value: UInt32) {
    Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
  }

  fileprivate mutating func appendChunk(_ type: String, _ body: Data) {
    appendBigEndian(UInt32(body.count))
    var typed = Data(type.utf8)
    typed.append(body)
    append(typed)
    appendBigEndian(CRC32.of(typed))
  }
}

private enum CRC32 {
  static let table: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    return crc
  }

  static func of(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }
}
