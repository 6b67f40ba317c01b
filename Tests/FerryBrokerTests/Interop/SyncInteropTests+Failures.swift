import FerryProtocol
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// What `ferry sync` says when the other machine cannot be had, and what a key restricted to
/// `ferry sync --stdio` lets a client run.
@Suite(.skipsWithoutPeers) struct SyncFailureInteropTests {
  /// Each failure in one line that names it, on standard error with status 7 (`--check`) and
  /// in `ferry status` for a link kept up: a host key not the known one, no ferry at the path
  /// named, a login that prints before ferry starts, no broker for the display asked for. None
  /// hangs (BatchMode). And `--check` of a host that answers names its ferry and broker.
  @Test func eachFailureIsNamed() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.ssh.addHost(
        "stranger", login: .forced(try b.remoteCommand()), hostKeyKnown: false)
      try await world.ssh.addHost("shell", login: .shell)
      try await world.ssh.addHost("chatty", runs: try b.remoteCommand(prefix: "echo hi; "))

      // The host key: status, for a link kept up, and --check.
      let kept = try world.startSyncUnchecked(on: a, to: ["stranger"])
      let refused = await Deadline.wait(for: .seconds(30)) { () async -> Bool in
        guard let link = try? await a.links().first(where: { $0.host == "stranger" }) else {
          return false
        }
        return link.state == "reconnecting"
          && link.error?.contains("Host key verification failed.") == true
      }
      let seen = await a.report()
      #expect(refused, "\(seen) \(kept.errorSoFar)")
      let status = try await a.fixture.run(["ferry", "status"]).stdoutText
      #expect(status.contains("last error: Host key verification failed."), "\(status)")
      _ = await kept.stopped()

      let checks: [(arguments: [String], says: String)] = [
        (
          ["stranger", "--check"],
          "ferry sync: stranger: Host key verification failed. (ssh exited 255)"
        ),
        (
          ["shell", "--check", "--remote-ferry", "/nonexistent"],
          "ferry sync: shell: the remote has no /nonexistent (exit 127"
        ),
        (
          ["chatty", "--check"],
          "ferry sync: chatty: the remote printed 3 bytes before ferry started"
        ),
        (["b", "--check", "--remote-display", ":1999"], "no broker answers for display :1999"),
      ]
      for check in checks {
        let result = try await world.runSync(on: a, check.arguments)
        #expect(result.status == 7, "\(check.arguments): \(result.stderrText)")
        #expect(
          result.stderrText.contains(check.says), "\(check.arguments): \(result.stderrText)")
        #expect(!result.stderrText.contains("ferry: \n"), "no empty message after the line")
      }

      let answers = try await world.runSync(on: a, ["b", "--check"])
      #expect(answers.status == 0, "\(answers.stderrText)")
      let line = answers.stdoutText
      let display = try #require(b.xvfb).number
      #expect(
        line.hasPrefix("b: ferry ") && line.contains(" on ")
          && line.hasSuffix(", display-\(display)\n"),
        "\(line)")
      #expect(try await a.links().isEmpty, "a --check leaves no link in status")
    }
  }

  /// The key a machine's authorized_keys restricts to `ferry sync --stdio` runs that whatever
  /// the client asks: `ssh HOST true` starts ferry, which refuses the command (an ERROR frame
  /// on the link, the reason on standard error, status 2), and `true` never runs.
  @Test func theRestrictedKeyRunsOnlyFerrySync() async throws {
    try await SyncWorld.with(["b"], headless: ["b"]) { world in
      let ssh = world.ssh
      let result = try await DetachedThread.run {
        try PeerProcess.run(
          ["ssh", "-F", ssh.configuration.path, "b", "true"], display: nil, timeout: .seconds(30))
      }
      #expect(result.status == 2, "\(result.stderrText)")
      #expect(
        result.stderrText.contains("this key runs only `ferry sync --stdio`; refused: true"),
        "\(result.stderrText)")
      let frame = [UInt8](result.stdout)
      try #require(frame.count > 5, "a frame on standard output: \(frame)")
      let length = frame[0..<4].reduce(0) { $0 << 8 | Int($1) }
      #expect(length + 4 == frame.count, "one frame: \(frame.count) bytes")
      #expect(frame[4] == Frame.Kind.error.rawValue)
      let body = try JSONDecoder().decode(ErrorBody.self, from: Data(frame[5...]))
      #expect(body.message.contains("refused: true"), "\(body.message)")
      #expect(ssh.log.contains("forced-command"), "\(ssh.log)")
      #expect((try? await world["b"].status()) == nil, "no broker was started for it")
    }
  }
}
