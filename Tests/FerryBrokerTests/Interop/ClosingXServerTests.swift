import FerryTestSupport
import Foundation
import Testing

/// An X server that closes the connection right after its setup reply (a forwarding proxy
/// going away, a server restarting): Xlib's default exit handler ended the whole process —
/// status 1 and Xlib's own words — because Ferry set its handler only after the connection's
/// first round trips (issue 36). Now the broker refuses that display in one line and status 3,
/// and `pbpaste` without a broker says the connection was lost, status 6.
@Suite struct ClosingXServerTests {
  /// A display that answers its setup and then closes: `Tests/Peers/x_closing_proxy.py` in
  /// front of a private Xvfb.
  static func closingDisplay(before front: XvfbServer) async throws -> (String, PeerProcess) {
    let number = (front.number + 4_000...front.number + 4_100).first {
      !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
    }!
    let proxy = try PeerProcess(
      [
        "/usr/bin/python3", Tools.peersDirectory.appendingPathComponent("x_closing_proxy.py").path,
        "\(number)", "\(front.number)",
      ], display: nil)
    let listening = await Deadline.wait(for: .seconds(10)) {
      FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
    }
    #expect(listening, "the proxy did not listen")
    return (":\(number)", proxy)
  }

  @Test func theBrokerRefusesTheDisplayInOneLine() async throws {
    let server = try await XvfbServer.disposable()
    defer { server.stop() }
    let (display, proxy) = try await Self.closingDisplay(before: server)
    defer { _ = proxy.kill() }
    let fixture = try await BrokerFixture(display: display, start: false)
    // The display's X thread ends in pthread_exit inside Xlib, by design (as in
    // DisplayLossTests): under AddressSanitizer its objects are left behind for good, and
    // LeakSanitizer's report at exit would make the status 1. Memory errors are still checked.
    let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map {
      ["ASAN_OPTIONS": $0 + ":detect_leaks=0"]
    }
    let daemon = try await fixture.run(
      ["ferry", "daemon"], timeout: .seconds(30), environment: options ?? [:])
    #expect(daemon.status == 3, "status \(daemon.status): \(daemon.stderrText)")
    #expect(daemon.stderrText.contains("\(display): the X server closed the connection"))
    #expect(!daemon.stderrText.contains("XIO"), "Xlib's own exit: \(daemon.stderrText)")
  }

  @Test func pbpasteSaysTheConnectionWasLost() async throws {
    let server = try await XvfbServer.disposable()
    defer { server.stop() }
    let (display, proxy) = try await Self.closingDisplay(before: server)
    defer { _ = proxy.kill() }
    let fixture = try await BrokerFixture(display: display, start: false)
    let paste = try await fixture.run(["pbpaste"], timeout: .seconds(30))
    #expect(paste.status == 6, "status \(paste.status): \(paste.stderrText)")
    #expect(
      paste.stderrText == "pbpaste: the connection to the X display was lost\n",
      "\(paste.stderrText)")
  }
}
