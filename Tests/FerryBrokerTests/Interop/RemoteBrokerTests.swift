import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// A remote shell using the local broker through a forwarded socket (`ssh -R
/// REMOTE.sock:$XDG_RUNTIME_DIR/ferry/…sock`), with a socat relay standing in for ssh:
/// `FERRY_SOCKET` points every client at it.
@Suite(.skipsWithoutPeers) struct RemoteBrokerTests {
  @Test func pbcopyAndPbpasteReachTheBrokerThroughAForwardedSocket() async throws {
    guard
      let socat = ["/usr/bin/socat", "/bin/socat"].first(
        where: FileManager.default.isExecutableFile)
    else {
      throw PeerUnavailable(program: "socat")
    }
    let fixture = try await BrokerFixture(display: nil, start: true)
    let status = try await fixture.run(["ferry", "status", "--json"])
    let brokerSocket = try #require(
      (try? JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])?["socket"]
        as? String, "\(status.stdoutText)")
    let remote = fixture.runtime.appendingPathComponent("remote-host")
    try FileManager.default.createDirectory(
      at: remote, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let forwarded = remote.appendingPathComponent("ferry-remote.sock").path
    let relay = try fixture.start([
      socat, "UNIX-LISTEN:\(forwarded),fork,mode=600", "UNIX-CONNECT:\(brokerSocket)",
    ])
    defer { _ = relay.kill() }
    let listening = await Deadline.wait(for: .seconds(10)) { () async -> Bool in
      FileManager.default.fileExists(atPath: forwarded)
    }
    try #require(listening, "\(relay.errorSoFar)")

    // The remote shell: another runtime directory, no display, only FERRY_SOCKET.
    let remoteEnvironment = [
      "XDG_RUNTIME_DIR": remote.path, "HOME": remote.path, "FERRY_SOCKET": forwarded,
    ]
    let pbcopy = try Tools.path("pbcopy")
    let pbpaste = try Tools.path("pbpaste")
    let copy = try await DetachedThread.run {
      try PeerProcess.run(
        [pbcopy], display: nil, input: Data("typed from afar".utf8), timeout: .seconds(20),
        environment: remoteEnvironment)
    }
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(
      try await fixture.run(["pbpaste"]).stdoutText == "typed from afar",
      "the local broker holds the remote copy")
    #expect(try await fixture.run(["pbcopy"], input: Data("local copy".utf8)).status == 0)
    let paste = try await DetachedThread.run {
      try PeerProcess.run(
        [pbpaste], display: nil, timeout: .seconds(20), environment: remoteEnvironment)
    }
    #expect(paste.stdoutText == "local copy", "\(paste.stderrText)")
    try await fixture.stop()
  }
}
