import FerryProtocol
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ferry sync` between brokers on "machines" of one host — each its own Xvfb and XDG
/// directories — over the real ssh and sshd on loopback (``LoopbackSSH``; docs/TESTING.md,
/// "ferry sync"). Copies are made and read by xclip on each machine's display. Every test
/// has displays, brokers and an sshd of its own, so the tests run side by side.
@Suite(.skipsWithoutPeers) struct SyncInteropTests {
  @Test func textCrossesEachWayByteForByte() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"])
      let there = Data("héllo → wörld\n\ttabbed, a trailing space \n\n".utf8)
      try await a.xclipCopy(there, in: world)
      let arrived = await b.waitForClipboard(there)
      let onB = await b.report()
      #expect(arrived, "\(onB)")
      let back = Data("and back: ünïcode ✓ 😀 \r\n".utf8)
      try await b.xclipCopy(back, in: world)
      let returned = await a.waitForClipboard(back)
      let onA = await a.report()
      #expect(returned, "\(onA)")
      #expect(try await b.xclipPaste().stdout == back, "b keeps its own copy")
      // What each link reports: the bytes of the last copy each way.
      let reported = await Deadline.wait(for: .seconds(10)) { () async -> Bool in
        guard let sent = try? await a.links().first, let received = try? await b.links().first
        else { return false }
        return sent.lastSent?.bytes == there.count && sent.lastReceived?.bytes == back.count
          && received.lastReceived?.bytes == there.count && received.lastSent?.bytes == back.count
      }
      let (reportA, reportB) = (await a.report(), await b.report())
      #expect(reported, "\(reportA) \(reportB)")

      // Copies in a row: each is on b's X selection, not only in its broker — the first
      // replaces the copy b's broker mirrored from xclip, the next ones the one before.
      for round in 1...4 {
        let next = Data("copy \(round) in a row from a".utf8)
        try await a.xclipCopy(next, in: world)
        let shown = await b.waitForClipboard(next)
        let onB = await b.report()
        #expect(shown, "round \(round): \(onB)")
      }
    }
  }

  @Test func aRichCopyArrivesWithEveryRepresentationInOrder() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"])
      let html = Data("<p>caf\u{e9} <b>bold</b> &amp; more</p>\n".utf8)
      let text = Data("café bold & more\n".utf8)
      let htmlFile = a.fixture.runtime.appendingPathComponent("a.html")
      let textFile = a.fixture.runtime.appendingPathComponent("a.txt")
      try html.write(to: htmlFile)
      try text.write(to: textFile)
      let copy = try await a.fixture.run([
        "ferry", "copy", "--type", "public.html", htmlFile.path, "--type",
        "public.utf8-plain-text", textFile.path,
      ])
      #expect(copy.status == 0, "\(copy.stderrText)")
      let stored = ["public.html", "public.utf8-plain-text"]
      let arrived = await Deadline.wait(for: .seconds(30)) {
        (try? await b.general().storedTypes) == stored
      }
      let seen = await b.report()
      try #require(arrived, "\(seen)")
      #expect(try await b.general().origin == a.general().origin, "the same copy")

      let listed = try await b.fixture.run(["pbpaste", "--list-types"]).stdoutText
      #expect(listed.split(separator: "\n").prefix(2) == ["public.html", "public.utf8-plain-text"])
      let targets = try await b.xclipPaste(target: "TARGETS").stdoutText
        .split(separator: "\n").map(String.init)
      #expect(targets.first == "text/html", "\(targets)")
      #expect(
        (targets.firstIndex(of: "text/html") ?? .max)
          < (targets.firstIndex(of: "UTF8_STRING") ?? -1),
        "HTML before text: \(targets)")
      #expect(try await b.fixture.run(["pbpaste", "--type", "public.html"]).stdout == html)
      #expect(
        try await b.fixture.run(["pbpaste", "--type", "public.utf8-plain-text"]).stdout == text)
      #expect(try await b.xclipPaste(target: "text/html").stdout == html)
      #expect(try await b.xclipPaste(target: "UTF8_STRING").stdout == text)
    }
  }

  /// A 3 MiB PNG by xclip, announced and pulled (`--eager-size 1`: only copies up to 1 MiB go
  /// with their offer), arrives whole.
  @Test func aLargeImageIsPulledWhole() async throws {
    try Peers.require("sha256sum")
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"], ["--eager-size", "1"])
      let png = NoisePNG.make(width: 1024, height: 1024, seed: 2026)
      #expect(png.count >= 3 << 20)
      let file = a.fixture.runtime.appendingPathComponent("noise.png")
      try png.write(to: file)
      let expected = try await a.fixture.run(["sha256sum", file.path]).stdoutText.prefix(64)
      try await a.xclipCopy(png, target: "image/png", in: world)
      let arrived = await Deadline.wait(for: .seconds(60)) {
        (try? await b.general().storedTypes.contains("public.png")) == true
      }
      let seen = await b.report()
      try #require(arrived, "\(seen)")
      let pasted = try await b.fixture.run([
        "/bin/sh", "-c", "xclip -o -selection clipboard -t image/png | sha256sum",
      ])
      #expect(pasted.stdoutText.prefix(64) == expected, "\(pasted.stderrText)")
      let reported = await Deadline.wait(for: .seconds(10)) { () async -> Bool in
        let sent = try? await a.links().first?.lastSent?.bytes
        let received = try? await b.links().first?.lastReceived?.bytes
        return sent == png.count && received == png.count
      }
      let (reportA, reportB) = (await a.report(), await b.report())
      #expect(reported, "\(reportA) \(reportB)")
    }
  }

  /// A password never leaves: not the broker's concealed copy (`ferry copy --sensitive`), nor
  /// a copy marked `org.nspasteboard.ConcealedType`; nothing changes on the other machine, its
  /// bytes are in no log — the brokers', ferry sync's, ssh's (`-v`, through `--verbose`) or
  /// sshd's — and the link counts each one skipped.
  @Test func aConcealedCopyNeverLeavesTheMachine() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      let sync = try await world.startSync(on: a, to: ["b"], sshOptions: "-v")
      let before = await b.changeCount()
      let secret = "correct-horse-\(UUID().uuidString.prefix(8))-staple"
      let password = a.fixture.runtime.appendingPathComponent("pw.txt")
      try Data(secret.utf8).write(to: password)
      let marker = a.fixture.runtime.appendingPathComponent("marker")
      try Data("1".utf8).write(to: marker)

      let sensitive = try await a.fixture.run(["ferry", "copy", "--sensitive", password.path])
      #expect(sensitive.status == 0, "\(sensitive.stderrText)")
      let counted = await Deadline.wait(for: .seconds(30)) {
        (try? await a.links().first?.skipped["concealed"]) == 1
      }
      let afterOne = await a.report()
      #expect(counted, "\(afterOne)")
      let marked = try await a.fixture.run([
        "ferry", "copy", "--type", "org.nspasteboard.ConcealedType", marker.path, "--type",
        "public.utf8-plain-text", password.path,
      ])
      #expect(marked.status == 0, "\(marked.stderrText)")
      let countedTwice = await Deadline.wait(for: .seconds(30)) {
        (try? await a.links().first?.skipped["concealed"]) == 2
      }
      let afterTwo = await a.report()
      #expect(countedTwice, "\(afterTwo)")

      // A copy after them arrives, and is the only change there: neither went before it.
      let after = Data("an ordinary copy after the passwords".utf8)
      try await a.xclipCopy(after, in: world)
      #expect(await b.waitForClipboard(after))
      #expect(await b.changeCount() == before + 1)
      let history = try await b.fixture.run(["ferry", "history"]).stdoutText
      #expect(!history.contains(secret))

      let logs = [
        ("ferry sync (with ssh -v and the far end's stderr)", sync.errorSoFar),
        ("a's broker", a.fixture.daemon?.errorSoFar ?? ""),
        ("b's broker", b.fixture.daemon?.errorSoFar ?? ""), ("sshd", world.ssh.log),
      ]
      #expect(sync.errorSoFar.contains("debug1:"), "ssh -v wrote to ferry sync's stderr")
      for (name, log) in logs {
        #expect(!log.contains(secret), "the password is in \(name)'s log")
      }
    }
  }

  /// Each copy is one change on each side, and nothing follows over five quiet seconds: no
  /// copy comes back over the link it went on.
  @Test func eachCopyIsOneChangeOnEachSide() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"])
      let counts = (a: await a.changeCount(), b: await b.changeCount())
      let watchA = try await a.fixture.startWatch(["-pboard", "general"])
      world.keep(watchA)
      let watchB = try await b.fixture.startWatch(["-pboard", "general"])
      world.keep(watchB)
      func changes(_ watch: PeerProcess) -> Int {
        watch.outputSoFar.split(separator: "\n").count { $0.hasPrefix("general ") }
      }

      let one = Data("one copy on a".utf8)
      try await a.xclipCopy(one, in: world)
      #expect(await b.waitForClipboard(one))
      let two = Data("one copy on b".utf8)
      try await b.xclipCopy(two, in: world)
      #expect(await a.waitForClipboard(two))
      let moreThanTwo = await Deadline.wait(for: .seconds(5)) {
        changes(watchA) > 2 || changes(watchB) > 2
      }
      #expect(!moreThanTwo, "a: \(watchA.outputSoFar) b: \(watchB.outputSoFar)")
      #expect(changes(watchA) == 2, "a: \(watchA.outputSoFar)")
      #expect(changes(watchB) == 2, "b: \(watchB.outputSoFar)")
      #expect(await a.changeCount() == counts.a + 2)
      #expect(await b.changeCount() == counts.b + 2)
    }
  }

  /// Copies made on both machines while neither has heard of the other's — the link held
  /// still (its ssh stopped with SIGSTOP) until both are sent — end on the same copy on both,
  /// the other kept in both histories.
  @Test func crossingCopiesConvergeOnOneItem() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"])
      func olderCopiesKept() -> Int {
        [a, b].map { machine in
          (machine.fixture.daemon?.errorSoFar ?? "").split(separator: "\n").count {
            $0.contains("a synchronized copy older than the current one goes to the history only")
          }
        }.reduce(0, +)
      }
      /// The brokers' log lines about writes, for a failure's message.
      func writes(_ machine: SyncMachine) -> [Substring] {
        (machine.fixture.daemon?.errorSoFar ?? "").split(separator: "\n").filter {
          $0.contains("wrote an item") || $0.contains("older than")
        }.map { $0.suffix(200) }
      }
      for round in 1...3 {
        let ssh = try #require(try await a.links().first?.sshPID)
        let x = "crossing \(round): X from a"
        let y = "crossing \(round): Y from b"
        kill(ssh, SIGSTOP)
        let copies = try await [(a, x), (b, y)].asyncMap { machine, text in
          try await machine.fixture.run(["pbcopy"], input: Data(text.utf8))
        }
        #expect(copies.allSatisfy { $0.status == 0 }, "\(copies.map(\.stderrText))")
        // Both offers are on their way (into the stopped ssh's pipe and socket) before the
        // link moves again: the copies cross, whatever the machine's load.
        let offered = await Deadline.wait(for: .seconds(30)) { () async -> Bool in
          for machine in [a, b] {
            guard let change = try? await machine.general().origin?.change,
              (try? await machine.links().first?.lastSent?.change) == change
            else { return false }
          }
          return true
        }
        kill(ssh, SIGCONT)
        let (reportA, reportB) = (await a.report(), await b.report())
        #expect(offered, "round \(round): \(reportA) \(reportB)")
        // They crossed: one broker had its own copy when the other's came, and kept that one
        // in its history only (the daemons log it).
        let crossed = await Deadline.wait(for: .seconds(30)) { olderCopiesKept() == round }
        #expect(
          crossed,
          "round \(round): \(olderCopiesKept()) older copies kept; a: \(writes(a)) b: \(writes(b))")
        func same() async -> Bool {
          guard let first = try? await a.general(), let second = try? await b.general(),
            let origin = first.origin, origin == second.origin
          else { return false }
          let texts = [
            try? await a.fixture.run(["pbpaste"]).stdoutText,
            try? await b.fixture.run(["pbpaste"]).stdoutText,
            try? await a.xclipPaste().stdoutText, try? await b.xclipPaste().stdoutText,
          ]
          return Set(texts).count == 1 && [x, y].contains(texts[0])
        }
        #expect(await Deadline.wait(for: .seconds(30)) { await same() }, "round \(round)")
        // And stays so: the losing copy does not land later on either side.
        #expect(!(await Deadline.wait(for: .seconds(2)) { !(await same()) }), "round \(round)")
        for machine in [a, b] {
          let history = try await machine.fixture.run(["ferry", "history"]).stdoutText
          #expect(history.contains(x) && history.contains(y), "\(machine.name): \(history)")
        }
      }
    }
  }

  /// Links a–b, b–c and c–a: one copy on a is one change on each machine, and nothing
  /// follows over five quiet seconds.
  @Test func aRingOfThreeStaysQuietAfterACopy() async throws {
    try await SyncWorld.with(["a", "b", "c"]) { world in
      let (a, b, c) = (world["a"], world["b"], world["c"])
      try await world.startSync(on: a, to: ["b"])
      try await world.startSync(on: b, to: ["c"])
      try await world.startSync(on: c, to: ["a"])
      var watches: [PeerProcess] = []
      for machine in [a, b, c] {
        let watch = try await machine.fixture.startWatch(["-pboard", "general"])
        world.keep(watch)
        watches.append(watch)
      }
      func changes(_ watch: PeerProcess) -> Int {
        watch.outputSoFar.split(separator: "\n").count { $0.hasPrefix("general ") }
      }
      let copy = Data("once around the ring".utf8)
      try await a.xclipCopy(copy, in: world)
      #expect(await b.waitForClipboard(copy))
      #expect(await c.waitForClipboard(copy))
      let more = await Deadline.wait(for: .seconds(5)) { watches.contains { changes($0) > 1 } }
      #expect(!more, "\(watches.map(\.outputSoFar))")
      for (machine, watch) in zip([a, b, c], watches) {
        #expect(changes(watch) == 1, "\(machine.name): \(watch.outputSoFar)")
      }
    }
  }

  /// The link's ssh killed, `ferry sync` connects again (after its first back-off, 1 s) and
  /// the next copies cross, each way.
  @Test func aKilledSSHIsReplacedAndTheNextCopyCrosses() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"])
      let first = try #require(try await a.links().first?.sshPID)
      kill(first, SIGKILL)
      let states = TrackedMutex<[String]>([])
      let back = await Deadline.wait(for: .seconds(30)) { () async -> Bool in
        guard let link = try? await a.links().first else { return false }
        states.withLock { if $0.last != link.state { $0.append(link.state) } }
        return link.state == "connected" && link.sshPID != nil && link.sshPID != first
      }
      #expect(back, "\(states.withLock { $0 })")
      #expect(states.withLock { $0.contains("reconnecting") }, "\(states.withLock { $0 })")
      let fromB = Data("after the reconnect, from b".utf8)
      try await b.xclipCopy(fromB, in: world)
      #expect(await a.waitForClipboard(fromB))
      let fromA = Data("and from a".utf8)
      try await a.xclipCopy(fromA, in: world)
      #expect(await b.waitForClipboard(fromA))
    }
  }

  /// A machine with no display: its end of the link starts a headless broker there, whose
  /// `pbpaste` then gives the other machine's copy, and whose `pbcopy` reaches it.
  @Test func aHeadlessRemoteGetsABrokerThatSharesTheClipboard() async throws {
    try await SyncWorld.with(["a", "b"], headless: ["b"]) { world in
      let (a, b) = (world["a"], world["b"])
      #expect((try? await b.status()) == nil, "no broker on b yet")
      try await world.startSync(on: a, to: ["b"])
      let status = try await b.status()
      world.keepDaemon(status.pid)
      #expect(status.display == nil && status.displays?.isEmpty != false, "headless")
      #expect(try await a.links().first?.remote?.hasSuffix(", headless") == true)

      let text = "copied on the desktop, pasted on the server"
      try await a.xclipCopy(Data(text.utf8), in: world)
      let pasted = await Deadline.wait(for: .seconds(30)) {
        (try? await b.fixture.run(["pbpaste"]).stdoutText) == text
      }
      let onB = (try? await b.fixture.run(["pbpaste"]).stdoutText) ?? "-"
      #expect(pasted, "pbpaste on b: \(onB)")
      let reply = "copied on the server"
      #expect(try await b.fixture.run(["pbcopy"], input: Data(reply.utf8)).status == 0)
      #expect(await a.waitForClipboard(Data(reply.utf8)))
    }
  }
}

extension Array {
  /// The results of `transform` on each element, all started at once.
  func asyncMap<Result: Sendable>(
    _ transform: @escaping @Sendable (Element) async throws -> Result
  ) async throws -> [Result] where Element: Sendable {
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
      for (index, element) in enumerated() {
        group.addTask { (index, try await transform(element)) }
      }
      var results: [(Int, Result)] = []
      for try await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }
}
