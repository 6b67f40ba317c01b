import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// `pbcopy` over SSH: with neither a display nor a broker, the copy reaches the terminal's
/// clipboard as OSC 52 — checked byte for byte on a real pseudo-terminal, and by tmux, whose
/// `set-clipboard on` turns the sequence into a buffer.
@Suite(.serialized, .skipsWithoutPeers) struct TerminalClipboardTests {
  /// Runs `shell` on a new pseudo-terminal (Python's pty module) with the fixture's
  /// environment, no display and `extra`; returns what the terminal received.
  static func onTerminal(_ fixture: BrokerFixture, _ shell: String, extra: [String: String] = [:])
    async throws -> Data
  {
    guard let python = Peers.systemPython else {
      throw PeerUnavailable(program: "/usr/bin/python3")
    }
    let output = fixture.runtime.appendingPathComponent("terminal-\(UUID().uuidString.prefix(6))")
    let script = """
      import os, pty, sys
      out = open(sys.argv[1], 'wb')
      def read(fd):
          data = os.read(fd, 65536)
          out.write(data); out.flush()
          return data
      status = pty.spawn(['/bin/sh', '-c', sys.argv[2]], read)
      sys.exit(os.waitstatus_to_exitcode(status))
      """
    var environment = fixture.environment.merging(extra) { $1 }
    environment["PATH"] =
      URL(fileURLWithPath: try Tools.path("pbcopy")).deletingLastPathComponent().path
      + ":/usr/bin:/bin"
    let finalEnvironment = environment
    let run = try await DetachedThread.run {
      try PeerProcess.run(
        [python, "-c", script, output.path, shell], display: nil, timeout: .seconds(30),
        environment: finalEnvironment)
    }
    #expect(run.status == 0, "\(run.stderrText)")
    return try Data(contentsOf: output)
  }

  @Test func pbcopyWritesOSC52ToTheTerminalByteForByte() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let received = try await Self.onTerminal(
      fixture, "printf 'héllo over ssh' | pbcopy; echo \"status=$?\"")
    let expected = Data(
      "\u{1B}]52;c;\(Data("héllo over ssh".utf8).base64EncodedString())\u{07}".utf8)
    #expect(
      received.range(of: expected) != nil,
      "\(String(decoding: received, as: UTF8.self).debugDescription)")
    #expect(String(decoding: received, as: UTF8.self).contains("status=0"))

    let never = try await Self.onTerminal(
      fixture, "printf x | pbcopy; echo \"status=$?\"", extra: ["FERRY_OSC52": "never"])
    #expect(
      String(decoding: never, as: UTF8.self).contains("status=3"),
      "FERRY_OSC52=never: no display, no broker")
    #expect(never.range(of: Data("\u{1B}]52".utf8)) == nil)
  }

  @Test func tooLongOrBinaryInputIsRefusedWithOneLine() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let long = try await Self.onTerminal(
      fixture, "head -c 100000 /dev/zero | tr '\\\\0' a | pbcopy; echo \"status=$?\"")
    let text = String(decoding: long, as: UTF8.self)
    #expect(text.contains("status=5") && text.contains("OSC 52"), "\(text)")
    #expect(long.range(of: Data("\u{1B}]52".utf8)) == nil, "nothing is sent")
    let png = try await Self.onTerminal(
      fixture, "printf '\\211PNG\\r\\n\\032\\n' | pbcopy; echo \"status=$?\"")
    #expect(String(decoding: png, as: UTF8.self).contains("status=5"))
    let paste = try await Self.onTerminal(fixture, "pbpaste; echo \"status=$?\"")
    let pasteText = String(decoding: paste, as: UTF8.self)
    #expect(pasteText.contains("status=3") && pasteText.contains("OSC 52"), "\(pasteText)")
  }

  /// Inside tmux with `set-clipboard on`, the copy becomes tmux's buffer.
  @Test func insideTmuxTheCopyBecomesATmuxBuffer() async throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
      throw PeerUnavailable(program: "tmux")
    }
    let fixture = try await BrokerFixture(display: nil, start: false)
    let socket = fixture.runtime.appendingPathComponent("tmux.sock").path
    let pbcopy = try Tools.path("pbcopy")
    let tmux = ["/usr/bin/tmux", "-S", socket, "-f", "/dev/null"]
    let start = try await fixture.run(
      tmux + ["new-session", "-d", "-x", "80", "-y", "24", "sh"] + [
        ";", "set", "-g", "set-clipboard", "on",
      ])
    #expect(start.status == 0, "\(start.stderrText)")
    var buffer = ""
    var arrived = false
    var failure: (any Error)?
    do {
      let sent = try await fixture.run(
        tmux + ["send-keys", "printf 'from inside tmux' | env -u DISPLAY '\(pbcopy)'", "Enter"])
      #expect(sent.status == 0)
      arrived = await Deadline.wait(for: .seconds(10)) {
        buffer = (try? await fixture.run(tmux + ["show-buffer"]).stdoutText) ?? ""
        return buffer == "from inside tmux"
      }
    } catch {
      failure = error
    }
    // Ended and waited for, not left to a defer (which cannot await): a server still
    // running when the run ends fails it (a kill-server only started once was outrun so).
    _ = try? await fixture.run(tmux + ["kill-server"])
    if let failure { throw failure }
    #expect(arrived, "tmux show-buffer: \(buffer.debugDescription)")
  }
}
