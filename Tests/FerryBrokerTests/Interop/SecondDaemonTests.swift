import FerrySystem
import FerryTestSupport
import Foundation
import Testing

/// A second `ferry daemon` for the same display names the broker that runs.
@Suite struct SecondDaemonTests {
  // ThreadSanitizer's runtime writes 512 KiB to /tmp/tsan.rodata.PID before main, which a
  // file-size limit of 0 kills with SIGXFSZ: no daemon of that build starts under it.
  @Test(
    .disabled(
      if: SanitizedRun.sanitizer == "thread", "ThreadSanitizer's runtime writes a file before main")
  )
  func aSecondDaemonNamesTheRunningBrokersPidEvenWhenItsPidFileIsEmpty() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    // A file-size limit of 0 stands in for a full runtime directory: the broker cannot write
    // its pid into the lock file, which stays empty.
    try await fixture.startDaemon(wrappedIn: ["prlimit", "--fsize=0"])
    let pid = try #require(fixture.daemon).pid
    let lockFile = fixture.runtime.appendingPathComponent("ferry/headless.sock.lock").path
    #expect((try? Data(wholeFileAt: URL(fileURLWithPath: lockFile)))?.isEmpty == true)

    let second = try await fixture.run(["ferry", "daemon"])
    #expect(second.status == 0)
    #expect(
      second.stderrText.contains("already running for this display (pid \(pid))"),
      "\(second.stderrText)")
    try await fixture.stop()
  }
}
