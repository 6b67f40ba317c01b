import FerryProtocol
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sync.hosts`: `ferry daemon` keeps the links itself, as `ferry sync` run as its child,
/// started again when it ends (docs/SYNC.md).
@Suite(.skipsWithoutPeers) struct SyncDaemonInteropTests {
  /// The process that started `pid` (its parent), from /proc.
  private func parent(of pid: Int32) -> Int32? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? Int32(fields[1]) : nil
  }

  @Test func theDaemonKeepsTheLinksOfSyncHostsAndStartsThemAgain() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await a.fixture.stop()
      try await a.fixture.startDaemon(
        wrappedIn: ["env", "FERRY_SSH=\(world.ssh.sshCommand)"], arguments: ["--sync-host", "b"])
      let connected = await Deadline.wait(for: .seconds(40)) { () async -> Bool in
        (try? await a.links().first?.state) == "connected"
      }
      let first = await a.report()
      try #require(connected, "\(first)")
      let daemon = try await a.status().pid
      let ssh = try #require(try await a.links().first?.sshPID)
      let child = try #require(parent(of: ssh), "ssh's parent")
      #expect(parent(of: child) == daemon, "ferry sync is the daemon's child")

      let there = Data("kept by the daemon".utf8)
      try await a.xclipCopy(there, in: world)
      let arrived = await b.waitForClipboard(there)
      let onB = await b.report()
      #expect(arrived, "\(onB)")

      // The child killed: the daemon starts another, whose link connects and carries copies.
      kill(child, SIGKILL)
      let again = await Deadline.wait(for: .seconds(40)) { () async -> Bool in
        guard let link = try? await a.links().first, link.state == "connected",
          let pid = link.sshPID, let next = parent(of: pid)
        else { return false }
        return next != child && parent(of: next) == daemon
      }
      let second = await a.report()
      #expect(again, "\(second)")
      let back = Data("after the restart, from b".utf8)
      try await b.xclipCopy(back, in: world)
      let returned = await a.waitForClipboard(back)
      let onA = await a.report()
      #expect(returned, "\(onA)")
    }
  }
}
