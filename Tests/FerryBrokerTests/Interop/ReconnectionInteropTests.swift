import FerryProtocol
import FerrySystem
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// A display server killed and started again under a running broker — an X server on the
/// same display number (a nested session's, or Xwayland started again on demand), headless
/// sway on the same socket: the broker connects again within seconds, serves the copy it held
/// to the new server's programs, keeps its pasteboards and history as they were, and bridges
/// the new server both ways; `ferry status` says it came back. The supervisor's rules on a
/// manual clock: `DisplaySupervisorTests`.
@Suite(.serialized, .skipsWithoutPeers) struct ReconnectionInteropTests {
  /// The history's entries, once it holds one: the copy made before the restart.
  private func recordedCopy(_ fixture: BrokerFixture) async throws -> [HistoryEntrySummary] {
    try await HistoryCommandTests.waitForEntries(fixture, count: 1)
  }

  /// Waits until `ferry status` says `display` is bridged again after going away once; the
  /// status it last printed.
  private func connectedAgain(_ fixture: BrokerFixture, _ line: String) async -> (Bool, String) {
    let text = TrackedMutex("")
    let again = await Deadline.wait(for: .seconds(30)) {
      let status = (try? await fixture.run(["ferry", "status"]))?.stdoutText ?? ""
      text.withLock { $0 = status }
      return status.contains("\(line): bridged") && status.contains("connected again once")
    }
    return (again, text.withLock { $0 })
  }

  @Test func aRestartedXServerIsConnectedAgainAndServedWithNothingLost() async throws {
    let first = try await XvfbServer.disposable()
    let servers = TrackedMutex([first])
    defer { servers.withLock { $0 }.forEach { $0.stop() } }
    let fixture = try await BrokerFixture(display: first.name, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("kept across".utf8)).status == 0)
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "kept across")
    let entries = try await recordedCopy(fixture)

    let restarted = try await DetachedThread.run { try first.restarted() }
    servers.withLock { $0.append(restarted) }
    let (again, status) = await connectedAgain(fixture, "X11 display \(first.name)")
    #expect(again, "\(status)")
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]))?.stdoutText
          == "kept across"
      }, "the new server's programs paste the broker's copy")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "kept across", "nothing is lost")
    let after = try await HistoryCommandTests.entries(fixture)
    #expect(after.map(\.id) == entries.map(\.id), "the history is as it was")

    // Bridged both ways on the new server.
    _ = try await fixture.run(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("after".utf8),
      timeout: .seconds(2))
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "after"
      })
    let log = try await fixture.stop()
    #expect(
      log.components(separatedBy: "the display went away").count == 2,
      "said once: \(log.suffix(800))")
    #expect(log.contains("connected to X11 \(first.name) again"), "\(log.suffix(800))")
  }

  @Test func aRestartedCompositorIsConnectedAgainAndServedWithNothingLost() async throws {
    let session = try await WaylandSession.disposable()
    defer { session.stop() }
    let fixture = try await BrokerFixture(
      display: nil, start: true, environment: ["WAYLAND_DISPLAY": session.socketPath])
    #expect(try await fixture.run(["pbcopy"], input: Data("kept across".utf8)).status == 0)
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await session.run(["wl-paste", "--no-newline"]))?.stdoutText == "kept across"
      })
    let entries = try await recordedCopy(fixture)

    try await DetachedThread.run { try session.restartCompositor() }
    let (again, status) = await connectedAgain(fixture, "Wayland display \(session.socketPath)")
    #expect(again, "\(status)")
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await session.run(["wl-paste", "--no-newline"]))?.stdoutText == "kept across"
      }, "the new compositor's programs paste the broker's copy")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "kept across", "nothing is lost")
    let after = try await HistoryCommandTests.entries(fixture)
    #expect(after.map(\.id) == entries.map(\.id), "the history is as it was")

    #expect(try await session.runServing(["wl-copy", "after"]).status == 0)
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "after"
      })
    let log = try await fixture.stop()
    #expect(log.contains("connected to Wayland \(session.socketPath) again"), "\(log.suffix(800))")
  }
}
