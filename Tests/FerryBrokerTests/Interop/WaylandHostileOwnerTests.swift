import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A hostile Wayland owner (`Tests/Peers/hostile_wayland_owner.py`, which speaks the wire
/// protocol itself: see its header for why not libwayland) costs one transfer, as an X one does (HostileOwnerTests):
/// on a private headless sway with a real `ferry daemon`, wl-copy and wl-paste beside it, each
/// mode checks that the broker answers `ferry status` and `pbpaste` while it captures, that
/// the next ordinary `wl-copy` is what `pbpaste` returns within a second, that a `pbcopy`
/// round trip works after, and that the daemon's threads, descriptors and memory come back.
/// How long each step took is printed. One suite, in order, on a session of its own.
@Suite(.serialized, .skipsWithoutPeers) struct WaylandHostileOwnerTests {
  let session: WaylandSession

  init() async throws {
    session = try await WaylandSession.dedicated("WaylandHostileOwnerTests")
  }

  @Test func anOwnerThatNeverWritesCostsOneTransfer() async throws {
    let run = try await WaylandHostileRun.start("silent", in: session)
    #expect(await waitForOutput(run.owner, "send text/plain;charset=utf-8"), "the broker asked")
    let paste = try await run.pasteOnceTheBrokerNoticed()
    #expect(paste.result.status == 4, "times out: \(paste.result.stderrText)")
    #expect(paste.result.stdout.isEmpty)
    try await run.finish()
  }

  @Test func anOwnerThatWritesForeverCostsOneTransfer() async throws {
    let run = try await WaylandHostileRun.start("endless", in: session)
    #expect(await waitForOutput(run.owner, "send text/plain;charset=utf-8"), "the broker asked")
    // The capture stops at the byte budget (64 MiB) and closes its end; the owner goes on
    // writing to the next reader. No paste of the endless copy is made: it would stream.
    let status = try await run.fixture.run(["ferry", "status"], timeout: .seconds(10))
    #expect(status.status == 0, "ferry status: \(status.stderrText)")
    try await run.finish()
  }

  @Test func anOwnerThatClosesAfterHalfCostsOneTransfer() async throws {
    let run = try await WaylandHostileRun.start("half", in: session)
    // Wayland has no length to check a transfer against: what came before the end of file is
    // the copy, as wl-paste would print it.
    let paste = try await run.pasteOnceTheBrokerNoticed()
    #expect(paste.result.status == 0, "\(paste.result.stderrText)")
    #expect(paste.result.stdout.count == 1 << 19, "half of 1 MiB: \(paste.result.stdout.count)")
    try await run.finish()
  }

  /// Thousands of types: the offer keeps 512 and the text after them, and the capture asks
  /// for no more than those (within its time budget); the copy is pasteable, and once its
  /// owner is killed the next wl-copy is what pbpaste returns within a second. (4,000 types:
  /// about what the compositor's socket to each client holds; see the next test for 20,000.)
  @Test func anOwnerOfThousandsOfTypesCostsOneCapture() async throws {
    let run = try await WaylandHostileRun.start("many-types", types: 4000, in: session)
    #expect(await waitForOutput(run.owner, "send-bogus 0"), "the broker asked for the types")
    let paste = try await run.pasteOnceTheBrokerNoticed()
    #expect(
      paste.result.status == 0 && paste.result.stdoutText == "hostile but short",
      "\(paste.result.status) \(paste.result.stderrText)")
    let asked = run.owner.outputSoFar.split(separator: "\n").filter { $0.hasPrefix("send-bogus") }
    #expect(
      !asked.contains { $0.hasPrefix("send-bogus 1000") },
      "the capture asked past the 512 types kept: \(asked.suffix(3))")
    try await run.finish(killingTheOwnerFirst: true)
  }

  @Test func aNewOwnerSupersedesTheCaptureOfThousandsOfTypesAtOnce() async throws {
    let run = try await WaylandHostileRun.start("many-types", types: 4000, in: session)
    #expect(await waitForOutput(run.owner, "send-bogus 0"), "the broker asked for the types")
    // wl-copy takes the selection while the broker reads the 512 types.
    try await run.finish()
  }

  /// The issue's case, 20,000 types (on main the next wl-copy was still not what pbpaste
  /// returned 11 s after the owner was killed). sway 1.7 sends them, some 900 KB, to every
  /// data-control client at once and drops a client whose socket fills meanwhile: here the
  /// broker's connection as often as not, and the owner's own (it may never see its copy
  /// made). The broker connects again (`DisplaySupervisor`, 100 ms later) and mirrors the
  /// owner it finds there; the next wl-copy is what pbpaste returns within a second, and
  /// `ferry status` still says the display is bridged. A new connection that mirrored
  /// nothing heard no later copy in 6 runs of 10 on this machine (nor did a `wl-paste
  /// --watch` started beside it), until it next spoke to the compositor.
  ///
  /// Under ThreadSanitizer the run is a known issue, intermittent: the instrumented broker
  /// reads the 900 KB more slowly than sway writes it, so sway drops every connection it
  /// makes while the hostile copy is current (2026-12-02: attempt 15 of 15 "closed the
  /// connection as Ferry set up"; wl-copy, beside the loaded machine, was dropped 4 times
  /// in 5). That is sway 1.7's rule for slow clients, not a fault ThreadSanitizer found:
  /// it reported nothing, and the test passes in the ordinary build, also beside
  /// `stress-ng --cpu 2`.
  @Test func anOwnerOfTwentyThousandTypesCostsOneCopy() async throws {
    guard SanitizedRun.sanitizer == "thread" else { return try await twentyThousandTypes() }
    await withKnownIssue(
      "sway 1.7 drops a client slower than its 900 KB of offers", isIntermittent: true
    ) {
      try await twentyThousandTypes()
    }
  }

  private func twentyThousandTypes() async throws {
    let run = try await WaylandHostileRun.start(
      "many-types", types: 20000, requiringReady: false, in: session)
    _ = await Deadline.wait(for: .seconds(20)) {
      run.owner.outputSoFar.contains("ready") || !run.owner.process.isRunning
    }
    print(
      "hostile_wayland_owner many-types 20000: \(run.owner.outputSoFar.split(separator: "\n").prefix(3)) \(run.owner.errorSoFar.prefix(300))"
    )
    let bridged = await Deadline.wait(for: .seconds(10)) {
      (try? await run.fixture.run(["ferry", "status"]).stdoutText)?.contains(
        "Wayland display \(session.socketPath): bridged") == true
    }
    #expect(bridged, "the broker is on the compositor again")
    try await run.finish()
  }

  /// The owner sets a new offer as the broker reads its first: the capture of the first is
  /// dropped at once (its read closed, never left to its step timeout), and the second is
  /// what pbpaste returns.
  @Test func anOwnerThatReplacesItsOfferWhileItIsReadCostsOneTransfer() async throws {
    let run = try await WaylandHostileRun.start("replace", in: session)
    #expect(await waitForOutput(run.owner, "replaced"), "the broker read the first offer")
    let clock = ContinuousClock()
    let started = clock.now
    let replaced = await Deadline.wait(for: .seconds(1)) {
      (try? await run.fixture.run(["pbpaste"], timeout: .seconds(5)).stdoutText)
        == "the replacement offer"
    }
    #expect(replaced, "pbpaste returned the replacement within a second")
    print(
      "hostile_wayland_owner replace: the replacement was pasteable after \(clock.now - started)")
    try await run.finish()
  }

  @Test func aPrimaryOwnerThatNeverWritesCostsOneTransfer() async throws {
    let run = try await WaylandHostileRun.start("silent", selection: "primary", in: session)
    let paste = try await run.pasteOnceTheBrokerNoticed()
    // PRIMARY's budget is zero: its data is read on request, which times out.
    #expect(paste.result.status == 4, "times out: \(paste.result.stderrText)")
    try await run.finish()
  }
}

/// One hostile case on Wayland: a broker that has mirrored an ordinary copy, its resources
/// measured then, and a hostile owner that took the selection after.
private struct WaylandHostileRun {
  static let warmText = "before the hostile owner"

  let mode: String
  let session: WaylandSession
  let fixture: BrokerFixture
  let owner: PeerProcess
  /// `clipboard` or `primary`.
  let selection: String
  let before: WaylandDaemonResources

  private var pasteboard: String { selection == "primary" ? "primary" : "general" }
  private var wlFlags: [String] { selection == "primary" ? ["--primary"] : [] }

  /// Starts a broker, mirrors a wl-copy and round-trips a pbcopy, measures the daemon, then
  /// starts the hostile owner in `mode` and waits for it to own `selection`.
  static func start(
    _ mode: String, selection: String = "clipboard", types: Int? = nil,
    requiringReady: Bool = true, in session: WaylandSession
  ) async throws -> WaylandHostileRun {
    let program = try peerProgram(in: session)
    let fixture = try await BrokerFixture(
      display: nil, start: true, environment: ["WAYLAND_DISPLAY": session.socketPath])
    let pasteboard = selection == "primary" ? "primary" : "general"
    let flags = selection == "primary" ? ["--primary"] : []
    #expect(try await session.runServing(["wl-copy"] + flags + ["warm"]).status == 0)
    let mirrored = await Deadline.wait(for: .seconds(20)) {
      (try? await fixture.run(["pbpaste", "-pboard", pasteboard]).stdoutText) == "warm"
    }
    try #require(mirrored, "the broker mirrors a wl-copy")
    try await expectRoundTrip(fixture, pasteboard: pasteboard, text: warmText)
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await session.run(["wl-paste", "--no-newline"] + flags).stdoutText) == warmText
      }, "wl-paste reads the broker's copy")
    let before = try #require(WaylandDaemonResources(fixture))
    let owner = try await session.peer(
      ["/usr/bin/python3", "-u", program, selection, mode] + (types.map { ["\($0)"] } ?? []))
    let ready = requiringReady ? await waitForOutput(owner, "ready", timeout: .seconds(20)) : true
    guard ready else {
      let result = try await DetachedThread.run { owner.kill() }
      Issue.record(
        "hostile_wayland_owner \(mode) never owned \(selection): \(result.stdoutText) \(result.stderrText); sway's log: \(session.log.suffix(1500)); ferry status: \((try? await fixture.run(["ferry", "status"]).stdoutText) ?? "")"
      )
      throw HostileWaylandOwnerDidNotStart()
    }
    // The broker answers while it captures the hostile owner's offer.
    let status = try await fixture.run(["ferry", "status"], timeout: .seconds(10))
    #expect(status.status == 0, "ferry status while capturing: \(status.stderrText)")
    return WaylandHostileRun(
      mode: mode, session: session, fixture: fixture, owner: owner, selection: selection,
      before: before)
  }

  /// The owner, copied where the session's user can read it (the compositor's namespace has
  /// a `/tmp` of its own, and a clean clone may sit in a directory only its owner can enter;
  /// the session's directory is at its usual path inside).
  private static func peerProgram(in session: WaylandSession) throws -> String {
    let source = Tools.peersDirectory.appendingPathComponent("hostile_wayland_owner.py")
    let copy = URL(fileURLWithPath: session.directory).appendingPathComponent(
      "hostile_wayland_owner.py")
    if !FileManager.default.fileExists(atPath: copy.path) {
      try FileManager.default.copyItem(at: source, to: copy)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
    }
    return copy.path
  }

  /// `pbpaste` through the broker once it has heard of the new owner (it no longer answers
  /// the warm-up text), and how long that last paste took.
  func pasteOnceTheBrokerNoticed() async throws -> TimedPaste {
    var last: TimedPaste?
    let noticed = await Deadline.wait(for: .seconds(30)) {
      let clock = ContinuousClock()
      let start = clock.now
      guard
        let result = try? await fixture.run(
          ["pbpaste", "-pboard", pasteboard], timeout: .seconds(40))
      else { return false }
      last = TimedPaste(result: result, elapsed: clock.now - start)
      return result.stdoutText != Self.warmText
    }
    let outcome = try #require(last)
    #expect(noticed, "the broker went on answering the earlier copy: \(outcome.result.stderrText)")
    print(
      "hostile_wayland_owner \(mode): pbpaste -pboard \(pasteboard) exited \(outcome.result.status) after \(outcome.elapsed), \(outcome.result.stdout.count) bytes; \(outcome.result.stderrText.trimmingCharacters(in: .newlines))"
    )
    return outcome
  }

  /// The checks every mode ends with, then stops the owner and the broker: the next
  /// ordinary wl-copy (made while the hostile owner still runs, or after it was killed) is
  /// what pbpaste returns within a second of the compositor holding it; the broker answers `ferry status` and a round
  /// trip; its threads, descriptors and memory come back.
  func finish(killingTheOwnerFirst killFirst: Bool = false) async throws {
    var ownerLog: PeerProcess.Result?
    if killFirst {
      ownerLog = try await DetachedThread.run { owner.kill() }
      // The broker takes the copy over once its owner has gone; a copy made in that instant
      // could be overtaken (data-control has no serials to order the two takes), so the
      // ordinary copy comes once the broker serves the hostile one.
      let served = await Deadline.wait(for: .seconds(20)) {
        (try? await session.run(["wl-paste", "--list-types"] + wlFlags).stdoutText)?.contains(
          "application/x-ferry-owner-") == true
      }
      #expect(served, "the broker serves the copy of the owner it lost")
    }
    let text = "after the hostile \(mode) owner"
    // sway 1.7 drops any client whose socket fills as it writes, wl-copy too: while 20,000
    // types are the selection, the compositor's 900 KB of offers to wl-copy's own data device
    // can cost wl-copy its connection before it sets its copy. The broker is timed from the
    // moment the compositor holds the copy (wl-paste reads it), tried up to five times.
    let clock = ContinuousClock()
    var attempts = 0
    var taken = false
    while !taken && attempts < 5 {
      attempts += 1
      #expect(try await session.runServing(["wl-copy"] + wlFlags + [text]).status == 0)
      taken = await Deadline.wait(for: .seconds(3)) {
        (try? await session.run(
          ["wl-paste", "--no-newline"] + wlFlags, timeout: .seconds(2)
        ).stdoutText) == text
      }
    }
    #expect(taken, "the compositor never held wl-copy's copy, in \(attempts) attempts")
    let started = clock.now
    let pasted = await Deadline.wait(for: .seconds(1)) {
      (try? await fixture.run(["pbpaste", "-pboard", pasteboard], timeout: .seconds(5)).stdoutText)
        == text
    }
    let took = clock.now - started
    #expect(pasted, "the next wl-copy was what pbpaste returned within a second")
    // However long it took, the copy must come: say how long when it was late.
    let late =
      pasted
      ? true
      : await Deadline.wait(for: .seconds(30)) {
        (try? await fixture.run(["pbpaste", "-pboard", pasteboard]).stdoutText) == text
      }
    let arrived = clock.now - started
    if ownerLog == nil { ownerLog = try await DetachedThread.run { owner.kill() } }

    let status = try await fixture.run(["ferry", "status"], timeout: .seconds(10))
    #expect(status.status == 0, "ferry status: \(status.stderrText)")
    let types = try? await session.run(["wl-paste", "--list-types"] + wlFlags)
    try await expectRoundTrip(fixture, pasteboard: pasteboard, text: "round trip after \(mode)")

    var after = WaylandDaemonResources(fixture)
    let settled = await Deadline.wait(for: .seconds(15)) { () async -> Bool in
      after = WaylandDaemonResources(fixture)
      return after.map { before.admits($0) } ?? false
    }
    #expect(
      settled,
      "threads, descriptors and memory back near \(before): \(after.map { "\($0), descriptors added: \(before.descriptorsAdded(in: $0)), gone: \($0.descriptorsAdded(in: before))" } ?? "the daemon is gone")"
    )
    print(
      "hostile_wayland_owner \(mode) on \(selection): the compositor held the next wl-copy at attempt \(attempts); it was pasteable through the broker after \(pasted ? took : arrived)\(late ? "" : " (never, in 31 s)"); before \(before), after \(after.map { "\($0)" } ?? "?")"
    )
    let log = try await fixture.stop()
    if !(pasted && settled) {
      Issue.record(
        "owner: \(ownerLog?.stdoutText.suffix(600) ?? "") \(ownerLog?.stderrText ?? ""); ferry status: \(status.stdoutText); wl-paste --list-types: \(types?.stdoutText.prefix(300) ?? "failed") broker log: \(log)"
      )
    }
  }
}

private struct HostileWaylandOwnerDidNotStart: Error {}

/// A finished paste and how long it ran.
private struct TimedPaste: Sendable {
  var result: PeerProcess.Result
  var elapsed: Duration
}

/// `pbcopy` then `pbpaste` through the broker give the same text back, within 10 s each.
private func expectRoundTrip(_ fixture: BrokerFixture, pasteboard: String, text: String)
  async throws
{
  let copy = try await fixture.run(
    ["pbcopy", "-pboard", pasteboard], input: Data(text.utf8), timeout: .seconds(10))
  #expect(copy.status == 0, "pbcopy: \(copy.stderrText)")
  let paste = try await fixture.run(["pbpaste", "-pboard", pasteboard], timeout: .seconds(10))
  #expect(paste.stdoutText == text, "pbpaste: \(paste.status) \(paste.stderrText)")
}

/// The daemon's thread count, open descriptors and anonymous resident memory, from `/proc`.
private struct WaylandDaemonResources: CustomStringConvertible {
  var threads: Int
  var descriptors: Int
  /// `RssAnon`, in KiB: the heap, which is what a capture would leave behind.
  var anonymousKiB: Int
  /// What each open descriptor is (`/proc/PID/fd` links), to name one left behind.
  var descriptorTargets: [String]

  init?(_ fixture: BrokerFixture) {
    guard let pid = fixture.daemon?.pid,
      let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
    else { return nil }
    descriptorTargets = names.map {
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "?"
    }.sorted()
    func field(_ name: String) -> Int? {
      status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        .flatMap { line in
          Int(line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
    }
    guard let threads = field("Threads"), let anonymous = field("RssAnon") else { return nil }
    self.threads = threads
    self.descriptors = names.count
    self.anonymousKiB = anonymous
  }

  /// Whether `later` is near these values: a few threads of the runtime's pools may come and
  /// go, no descriptor is left behind, and the heap is back within 16 MiB (a sanitizer's
  /// quarantine holds what was freed: its figure is not the daemon's).
  func admits(_ later: WaylandDaemonResources) -> Bool {
    later.threads <= threads + 2 && later.descriptors <= descriptors + 1
      && (!SanitizedRun.measuresMemory || later.anonymousKiB <= anonymousKiB + 16 << 10)
  }

  var description: String {
    "\(threads) threads, \(descriptors) descriptors, RssAnon \(anonymousKiB / 1024) MiB"
  }

  /// The descriptors open in `later` and not here, by what they are.
  func descriptorsAdded(in later: WaylandDaemonResources) -> [String] {
    var left = descriptorTargets
    return later.descriptorTargets.filter { target in
      guard let index = left.firstIndex(of: target) else { return true }
      left.remove(at: index)
      return false
    }
  }
}
