import FerrySystem
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 20: a test process that ends, however it ends, leaves nothing running. The test
/// process here is `KeeperProbe`, which starts an Xvfb, X peers, a shell with a child, a
/// detached pbcopy server and a ferry daemon through FerryTestSupport, as tests do.
@Suite struct ProcessKeeperTests {
  /// The processes whose environment carries `mark` (every descendant inherits it).
  private func processes(marked mark: String) -> [Int32: String] {
    let needle = Data("FERRY_PROBE_MARK=\(mark)".utf8)
    var found: [Int32: String] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = Int32(entry),
        // Data(wholeFileAt:), not FileManager: a zombie's environ is empty, and
        // swift-foundation leaks 4 KiB for each empty file it reads (LeakSanitizer).
        let environment = try? Data(wholeFileAt: URL(fileURLWithPath: "/proc/\(entry)/environ")),
        environment.range(of: needle) != nil
      else { continue }
      let command =
        (try? Data(wholeFileAt: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))) ?? Data()
      found[pid] = String(decoding: command.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
    }
    return found
  }

  /// The probe starts Xvfb and xclip.
  @Test(.skipsWithoutPeers("Xvfb", "xclip"), arguments: [SIGKILL, SIGTERM, SIGABRT])
  func nothingOutlivesTheTestProcess(signal: Int32) async throws {
    let mark = UUID().uuidString
    let runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-keeper-\(mark.prefix(8))")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: runtime) }
    let probe = try PeerProcess(
      [try Tools.path("KeeperProbe"), try Tools.path("pbcopy"), try Tools.path("ferry")],
      display: nil,
      environment: [
        "FERRY_PROBE_MARK": mark, "XDG_RUNTIME_DIR": runtime.path, "HOME": runtime.path,
      ])
    defer { _ = probe.kill(signal: SIGKILL) }
    let started = await waitForOutput(probe, "started 0", timeout: .seconds(30))
    try #require(started, "the probe started its processes: \(probe.errorSoFar)")
    let children = processes(marked: mark).filter { $0.key != probe.pid }
    let commands = children.values.joined(separator: "\n")
    for expected in ["Xvfb", "xclip", "sleep 600", "sleep 601", "pbcopy", "ferry daemon", "awk"] {
      #expect(commands.contains(expected), "the probe runs \(expected): \(commands)")
    }
    _ = kill(probe.pid, signal)
    let gone = await Deadline.wait(for: .seconds(15)) { () async -> Bool in
      processes(marked: mark).isEmpty
    }
    let left = processes(marked: mark)
    for pid in left.keys { kill(pid, SIGKILL) }
    #expect(gone, "left running after the probe got signal \(signal): \(left.values.sorted())")
  }
}
