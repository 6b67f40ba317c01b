import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 11, "Memory that is never given back": the resident memory of a real `ferry daemon`
/// (VmRSS from /proc) around the transfers that kept memory, on a private Xvfb. Each bound is
/// far below what the daemon kept before the fix and far above the noise of a debug build.
/// Scripts/bench-memory measures the same with the release build, beside CopyQ.
@Suite(.serialized, .skipsWithoutPeers) struct MemoryInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip")
    xvfb = try await XvfbServer.dedicated("memory")
  }

  /// A broker holding `mebibytes` MiB of text written by pbcopy (spooled), and its pid.
  private func brokerHoldingText(mebibytes: Int) async throws -> (BrokerFixture, Int32) {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let pid = try #require(fixture.daemon).pid
    let file = try fixture.textFile(mebibytes: mebibytes)
    let copy = try await fixture.run(
      ["sh", "-c", "'\(try Tools.path("pbcopy"))' < '\(file.path)'"], timeout: .seconds(60))
    try #require(copy.status == 0, "pbcopy: \(copy.stderrText)")
    // The broker serves it on CLIPBOARD once it has taken the selection. Asked for TIMESTAMP,
    // which it answers without looking at the item: TARGETS would make it read the text.
    let served = await Deadline.wait(for: .seconds(20)) {
      (try? await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TIMESTAMP"]))?
        .status == 0
    }
    try #require(served)
    return (fixture, pid)
  }

  /// `count` readers of `target` on CLIPBOARD, each stalled in INCR holding its first chunk
  /// (`xselprobe stall`). TARGETS is asked first (the broker reads the text once to see what it
  /// may offer), so that each reader's request is answered soon (the probe waits 60 s for it).
  private func stalledReaders(_ fixture: BrokerFixture, count: Int, target: String) async throws
    -> [PeerProcess]
  {
    let probe = try await DetachedThread.run { try CompiledPeer.build("xselprobe.c") }
    let targets = try await fixture.run(
      ["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"], timeout: .seconds(120))
    try #require(
      targets.stdoutText.contains("UTF8_STRING"),
      "TARGETS: \(targets.stdoutText) \(targets.stderrText)")
    let readers = try (0..<count).map { _ in
      try fixture.start([probe, "stall", "CLIPBOARD", target])
    }
    for reader in readers where !(await waitForOutput(reader, "stalled", timeout: .seconds(60))) {
      readers.forEach { _ = $0.kill() }
      Issue.record("a reader of \(target) did not stall in INCR: \(reader.outputSoFar)")
      throw CancellationError()
    }
    return readers
  }

  /// Waits until the daemon's resident memory is at most `limit` MiB, and returns the last
  /// figure read.
  /// Under a sanitizer the figures are not the daemon's (``SanitizedRun/measuresMemory``):
  /// the figure is read once, and ``expectResident(_:atMost:_:sourceLocation:)`` checks nothing.
  private func waitForResidentMemory(
    of pid: Int32, atMost limit: Double, within deadline: Duration = .seconds(20)
  ) async -> Double {
    guard SanitizedRun.measuresMemory else { return residentMebibytes(of: pid) }
    var last = 0.0
    _ = await Deadline.wait(for: deadline) { () async -> Bool in
      last = residentMebibytes(of: pid)
      return last <= limit
    }
    return last
  }

  /// Expects `figure` MiB to be at most `limit`, in a run whose figures are the daemon's own.
  private func expectResident(
    _ figure: Double, atMost limit: Double, _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard SanitizedRun.measuresMemory else { return }
    #expect(figure <= limit, comment, sourceLocation: sourceLocation)
  }

  /// The issue: one `xclip -o` of a 100 MiB spooled item raised the broker from 31 to 145 MB
  /// until the item was replaced. Offering `STRING` and `text/plain` converted the whole text
  /// to Latin-1 to see whether it fits, and the item kept that conversion.
  @Test func oneXReadOfASpooledItemGivesItsMemoryBack() async throws {
    let (fixture, pid) = try await brokerHoldingText(mebibytes: 48)
    let held = residentMebibytes(of: pid)
    let read = try await fixture.run(
      ["sh", "-c", "xclip -o -selection clipboard | wc -c"], timeout: .seconds(120))
    #expect(read.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "\(48 << 20)")
    let after = await waitForResidentMemory(of: pid, atMost: held + 12)
    expectResident(
      after, atMost: held + 12,
      "holding 48 MiB spooled: \(held) MiB; after one xclip -o: \(after) MiB")
    try await fixture.stop()
  }

  /// The issue: three stalled readers asking a 100 MiB item as UTF-16 pushed the broker to
  /// 295 MB. The conversion was made in memory (the text, a String of it, its UTF-16) and
  /// kept by the item; now it is written a chunk at a time to the item's spool, and readers
  /// read it from there.
  @Test func stalledUTF16ReadersHoldNoCopyOfTheText() async throws {
    // Under a sanitizer, where the figures are not checked, 2 MiB (still many INCR chunks):
    // converting 12 MiB to UTF-16 took AddressSanitizer's debug build past the probe's 5 s.
    let (fixture, pid) = try await brokerHoldingText(
      mebibytes: SanitizedRun.measuresMemory ? 12 : 2)
    let held = residentMebibytes(of: pid)
    let readers = try await stalledReaders(fixture, count: 3, target: "text/plain;charset=utf-16")
    defer { readers.forEach { _ = $0.kill() } }
    let stalled = residentMebibytes(of: pid)
    // Before: 12 MiB of text as UTF-16 is 24 MiB, and a String and a Latin-1 copy besides.
    expectResident(
      stalled, atMost: held + 12,
      "holding 12 MiB: \(held) MiB; three readers stalled in its UTF-16: \(stalled) MiB")
    // The owner gives up on a reader after 5 s without a deletion; what it read goes.
    let after = await waitForResidentMemory(of: pid, atMost: held + 6)
    expectResident(after, atMost: held + 6, "after the owner gave up on them: \(after) MiB")
    try await fixture.stop()
  }

  /// The issue: five requestors stalling INCR left 156 MB behind: the target table's Latin-1
  /// copy of the text, and 4 MiB chunk buffers that glibc, its mmap threshold raised, kept in
  /// the heap once freed. Chunks now go through one 1 MiB buffer, freed with the last transfer.
  @Test func stalledIncrReadersAreDroppedAndLeaveNothing() async throws {
    let (fixture, pid) = try await brokerHoldingText(mebibytes: 48)
    let held = residentMebibytes(of: pid)
    let readers = try await stalledReaders(fixture, count: 5, target: "UTF8_STRING")
    defer { readers.forEach { _ = $0.kill() } }
    let after = await waitForResidentMemory(of: pid, atMost: held + 6)
    expectResident(
      after, atMost: held + 6,
      "holding 48 MiB: \(held) MiB; after five readers stalled and were dropped: \(after) MiB")
    try await fixture.stop()
  }

  /// The issue: 500 idle connections left 23 MB. Each connection kept a 64 KiB receive buffer
  /// for its whole life, and the decoder its storage.
  @Test func idleConnectionsCostLittleAndLeaveLittle() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let pid = try #require(fixture.daemon).pid
    let socket = fixture.runtime.appendingPathComponent(
      "ferry/display-\(xvfb.name.dropFirst()).sock"
    ).path
    // Warm the paths a connection takes, so the figure below is what connections hold.
    try await DetachedThread.run {
      try (0..<20).forEach { _ in try RawConnection(path: socket).hello() }
    }
    let before = residentMebibytes(of: pid)
    var connections: [RawConnection]? = try await DetachedThread.run {
      try (0..<500).map { _ in
        let connection = try RawConnection(path: socket)
        try connection.hello()
        return connection
      }
    }
    let open = residentMebibytes(of: pid)
    expectResident(
      open - before, atMost: 12, "before: \(before) MiB; 500 idle connections: \(open) MiB")
    connections = nil
    _ = connections
    let after = await waitForResidentMemory(of: pid, atMost: before + 6)
    expectResident(after, atMost: before + 6, "after they closed: \(after) MiB")
    #expect(try await fixture.run(["ferry", "status"]).status == 0)
    try await fixture.stop()
  }
}

/// The resident memory of process `pid` (VmRSS), in MiB; 0 when it cannot be read.
func residentMebibytes(of pid: Int32) -> Double {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kibibytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
      .flatMap({ Double($0) })
  else { return 0 }
  return kibibytes / 1024
}
