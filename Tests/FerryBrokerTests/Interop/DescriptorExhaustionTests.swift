import FerryProtocol
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A broker out of file descriptors sheds connections instead of spinning on `accept`.
@Suite struct DescriptorExhaustionTests {
  @Test func aFloodPastTheDescriptorLimitIsShedAndTheBrokerKeepsAnswering() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    try await fixture.startDaemon(wrappedIn: ["prlimit", "--nofile=64"])
    let pid = try #require(fixture.daemon).pid
    let socket = fixture.runtime.appendingPathComponent("ferry/headless.sock").path

    // 100 clients connect and hold their connections without a word: more than 64
    // descriptors can hold.
    let flood = try await DetachedThread.run {
      try (0..<100).map { _ in try RawConnection(path: socket) }
    }
    let before = try cpuTime(of: pid)
    let status = try await fixture.run(["ferry", "status"], timeout: .seconds(10))
    #expect(status.status == 0, "ferry status is answered during the flood: \(status.stderrText)")
    // Over a couple of seconds of the flood, the broker sleeps: a broker retrying `accept`
    // burns one CPU second each second.
    let spun = await Deadline.wait(for: .seconds(2)) { () async -> Bool in
      ((try? cpuTime(of: pid)) ?? before) - before > .milliseconds(500)
    }
    #expect(!spun, "the broker used \(((try? cpuTime(of: pid)) ?? before) - before) of CPU")
    // The connection silent longest gave way to newer ones, and was told why.
    let shed = try await DetachedThread.run { try flood[0].receive() }
    #expect(shed?.kind == .error)
    #expect(try shed?.decodeJSON(ErrorBody.self).code == .busy)
    try await DetachedThread.run { flood.forEach { $0.closeSending() } }
    _ = consume flood

    #expect(try await fixture.run(["pbcopy"], input: Data("after the flood".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "after the flood")
    try await fixture.stop()
  }
}

/// The CPU time (user and system) a process has used so far, from `/proc/PID/stat`.
func cpuTime(of pid: Int32) throws -> Duration {
  let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
  // The command name, in parentheses, may hold spaces: fields are counted after it.
  guard let close = stat.lastIndex(of: ")") else { throw POSIXError(.EINVAL) }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  // Fields 14 and 15 (utime, stime) are the 12th and 13th after the name.
  guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
    throw POSIXError(.EINVAL)
  }
  let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
  return .milliseconds((user + system) * 1000 / ticksPerSecond)
}
