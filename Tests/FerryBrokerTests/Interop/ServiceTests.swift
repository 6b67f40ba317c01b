import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Running the broker as a service: the systemd user unit and the readiness message it waits
/// for.
@Suite(.skipsWithoutPeers) struct ServiceTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A datagram socket standing in for systemd's notification socket: the listener prints
  /// `listening`, then the first message it receives on one line.
  static func notificationListener(_ fixture: BrokerFixture) async throws -> (
    listener: PeerProcess, path: String
  ) {
    guard let python = Peers.systemPython else {
      throw PeerUnavailable(program: "/usr/bin/python3")
    }
    let notify = fixture.runtime.appendingPathComponent(
      "notify-\(UUID().uuidString.prefix(6)).sock"
    ).path
    let listener = try fixture.start([
      python, "-c",
      """
      import socket, sys
      s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])
      print('listening', flush=True)
      print(s.recv(4096).decode().replace('\\n', ' '), flush=True)
      """,
      notify,
    ])
    #expect(await waitForOutput(listener, "listening"))
    return (listener, notify)
  }

  /// `systemd-analyze verify` accepts the unit with the built `ferry` in place of `@BINDIR@`,
  /// without a single warning (an unknown key is only a warning to it).
  @Test func theUserUnitVerifies() async throws {
    guard
      let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(
        where: FileManager.default.isExecutableFile)
    else { throw PeerUnavailable(program: "systemd-analyze") }
    let fixture = try await BrokerFixture(display: nil, start: false)
    let template = try String(
      contentsOf: Self.repository.appendingPathComponent("Support/systemd/ferry.service"),
      encoding: .utf8)
    let binDirectory = URL(fileURLWithPath: try Tools.path("ferry")).deletingLastPathComponent()
      .path
    let unit = fixture.runtime.appendingPathComponent("ferry.service")
    try Data(template.replacingOccurrences(of: "@BINDIR@", with: binDirectory).utf8).write(to: unit)
    for line in [
      "Type=notify", "PartOf=graphical-session.target", "WantedBy=graphical-session.target",
      "Restart=on-failure",
    ] {
      #expect(template.contains(line + "\n"), "the unit says \(line)")
    }
    let verify = try await fixture.run([analyze, "--user", "--man=no", "verify", unit.path])
    #expect(verify.status == 0 && verify.stderrText.isEmpty, "\(verify.stderrText)")
  }

  /// With `NOTIFY_SOCKET` set (as systemd sets it for `Type=notify`), the daemon sends
  /// `READY=1` once its socket accepts connections: a client right after it is served.
  @Test func theDaemonSaysReadyOnceItsSocketAcceptsConnections() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let (listener, notify) = try await Self.notificationListener(fixture)
    defer { _ = listener.kill() }
    let daemon = try PeerProcess(
      [try Tools.path("ferry"), "daemon"], display: nil,
      environment: fixture.environment.merging(["NOTIFY_SOCKET": notify]) { $1 })
    defer { _ = daemon.kill() }
    #expect(await waitForOutput(listener, "READY=1"), "\(listener.outputSoFar)")
    #expect(
      listener.outputSoFar.contains("MAINPID=\(daemon.process.processIdentifier)"),
      "\(listener.outputSoFar)")
    let status = try await fixture.run(["ferry", "status"])
    #expect(status.status == 0, "served at once after READY=1: \(status.stderrText)")
  }
}
