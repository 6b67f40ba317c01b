import FerrySystem
import FerryTestSupport
import FoundationEssentials
import Logging
import Pasteboard
import SelectionBackendCore
import SelectionBackendEmbedded
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// A display server that goes away and comes back, played by embedded display servers on a
/// manual clock: the supervisor connects again with back-off, the new connection serves the
/// pasteboard's copy without a change, status says what happened, and a closed supervisor
/// stops trying. The same against real servers: `ReconnectionInteropTests`.
@Suite struct DisplaySupervisorTests {
  /// A supervised display whose connections are embedded display servers, made in turn; the
  /// first `refusals` attempts to connect again fail.
  final class Harness: Sendable {
    let clock = ManualClock()
    let pasteboard = Pasteboard(name: Pasteboard.Name(rawValue: "supervised-\(UUID().uuidString)"))
    let supervisor: DisplaySupervisor
    let running: Task<Void, Never>
    /// Every connection made, the first included, and the attempts to connect again.
    let made = Connections()

    /// The connections made and the attempts, refused or not, to connect again.
    final class Connections: Sendable {
      let list = TrackedMutex<[EmbeddedSelectionBackend<ManualClock>]>([])
      let attempts = TrackedMutex(0)
    }

    init(
      refusals: Int = 0,
      beforeConnecting: @escaping @Sendable (EmbeddedSelectionBackend<ManualClock>) -> Void = { _ in
      }
    ) async throws {
      let (clock, made) = (clock, made)
      let kind = DisplayServerKind(
        name: "Embedded", environmentVariable: "FERRY_EMBEDDED_DISPLAY",
        protocolName: "in-process"
      ) { _, _ throws(BackendError) in
        let attempt = made.attempts.withLock { count -> Int in
          count += 1
          return count
        }
        guard attempt > refusals else {
          throw .cannotConnect("no display server at attempt \(attempt)")
        }
        let backend = EmbeddedSelectionBackend(clock: clock)
        beforeConnecting(backend)
        made.list.withLock { $0.append(backend) }
        return backend
      }
      supervisor = DisplaySupervisor(
        kind: kind, display: "embedded-1", options: DisplayServerKind.Options(), clock: clock,
        logger: Logger(label: "supervisor-test"))
      let first = EmbeddedSelectionBackend(clock: clock)
      made.list.withLock { $0.append(first) }
      let pasteboard = pasteboard
      @Sendable func bridge(_ backend: any SelectionBackend, resuming: Bool)
        -> DisplaySupervisor.Bridge
      {
        let binding = SelectionBinding(
          pasteboard: pasteboard, role: .clipboard, backend: backend, byteBudget: 1 << 20,
          logger: Logger(label: "supervisor-test"))
        return DisplaySupervisor.Bridge(
          bindings: [binding], tasks: [Task { await binding.run(resuming: resuming) }])
      }
      try #require(supervisor.install(first, bridge: bridge(first, resuming: false)))
      running = Task { [supervisor] in
        await supervisor.run { backend in bridge(backend, resuming: true) }
      }
      try #require(await Deadline.wait(for: .seconds(20)) { first.watcherCount == 1 })
    }

    deinit {
      running.cancel()
      supervisor.close()
      for connection in made.list.withLock({ $0 }) { connection.close() }
    }

    /// The connection made last.
    var current: EmbeddedSelectionBackend<ManualClock> { made.list.withLock { $0.last! } }

    /// How many connections were made, the first included.
    var connectionCount: Int { made.list.withLock { $0.count } }

    /// How many attempts to connect again were made.
    var attempts: Int { made.attempts.withLock { $0 } }

    /// Writes `text` and waits until the current connection serves it.
    func write(_ text: String) async throws {
      let count = pasteboard.write([
        PasteboardItem(representations: [.data(Data(text.utf8), type: .utf8PlainText)])
      ])
      let binding = try #require(supervisor.bindings.first)
      try #require(await binding.published.wait(for: count, within: .seconds(20)))
    }

    /// Waits until the supervisor sleeps before its next attempt, then moves the clock past it.
    func advanceToNextAttempt(_ delay: Duration) async throws {
      try #require(await Deadline.wait(for: .seconds(20)) { self.clock.sleeperCount > 0 })
      clock.advance(by: delay)
    }
  }

  @Test func aLostDisplayIsConnectedAgainAndServesThePasteboardsCopyWithoutAChange() async throws {
    let harness = try await Harness(refusals: 1)
    try await harness.write("kept across")
    let first = harness.current
    #expect(first.brokerOwns(.clipboard))
    let count = harness.pasteboard.changeCount

    first.loseConnection()
    #expect(
      await Deadline.wait(for: .seconds(20)) { !harness.supervisor.status.bridged },
      "status says the display is away")
    #expect(harness.supervisor.status.problem?.hasPrefix("the display server went away") == true)
    #expect(harness.supervisor.bindings.isEmpty, "the lost connection's bindings are stopped")

    try await harness.advanceToNextAttempt(.milliseconds(100))  // refused
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.supervisor.status.problem?.contains("attempt 1 failed: ") == true
      }, "\(harness.supervisor.status)")
    try await harness.advanceToNextAttempt(.milliseconds(200))  // made
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.connectionCount == 2 && harness.current.brokerOwns(.clipboard)
      }, "the new connection serves the pasteboard's copy")
    let pasted = try await harness.current.peerPastes(.clipboard, UTType.utf8PlainText.identifier)
    #expect(String(decoding: pasted, as: UTF8.self) == "kept across")
    #expect(harness.pasteboard.changeCount == count, "connecting again is not a change")
    let status = harness.supervisor.status
    #expect(status.bridged && status.problem == nil)
    #expect(status.reconnections == 1)
    #expect(status.lastLoss?.hasPrefix("the display server went away") == true)
    #expect(harness.attempts == 2)

    // The new connection is bridged both ways: a peer's copy there is mirrored.
    harness.current.peerCopies(.clipboard, [.text("from the new connection")])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite && harness.pasteboard.changeCount == count + 1
      })
  }

  /// A program that took the selection on the display server that came back keeps it: the
  /// broker never overtakes an owner, and mirrors its copy instead — though no owner change
  /// was ever heard on the new connection.
  @Test func aConnectionMadeAgainLeavesTheSelectionToAnOwnerItFindsAndMirrorsIt() async throws {
    let harness = try await Harness(beforeConnecting: { backend in
      backend.peerCopies(.clipboard, [.text("the new owner's")])
    })
    try await harness.write("the broker's")
    harness.current.loseConnection()
    try await harness.advanceToNextAttempt(.milliseconds(100))
    #expect(
      await Deadline.wait(for: .seconds(20)) { harness.connectionCount == 2 })
    #expect(await Deadline.wait(for: .seconds(20)) { harness.supervisor.status.bridged })
    #expect(!harness.current.brokerOwns(.clipboard))
    #expect(harness.current.owner(.clipboard) != nil)
    let pasteboard = harness.pasteboard
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        guard !pasteboard.hasPendingWrite, let item = pasteboard.items.first,
          let data = try? await item.data(for: .utf8PlainText)
        else { return false }
        return String(decoding: data, as: UTF8.self) == "the new owner's"
      }, "the owner found on the new connection is mirrored")
    #expect(!harness.current.brokerOwns(.clipboard), "and keeps the selection")
  }

  @Test func aClosedSupervisorStopsConnectingAgain() async throws {
    let harness = try await Harness(refusals: 100)
    harness.current.loseConnection()
    try await harness.advanceToNextAttempt(.milliseconds(100))
    #expect(await Deadline.wait(for: .seconds(20)) { harness.attempts == 1 })
    harness.supervisor.close()
    harness.running.cancel()
    #expect(await Deadline.wait(for: .seconds(20)) { harness.clock.sleeperCount == 0 })
    harness.clock.advance(by: .seconds(60))
    #expect(harness.attempts == 1, "no attempt after the close")
  }

  @Test func theWaitBeforeEachAttemptDoublesUpToFiveSeconds() {
    let backoff = ReconnectionBackoff()
    let delays = (1...9).map { backoff.delay(beforeAttempt: $0) }
    #expect(
      delays == [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000].map { .milliseconds($0) })
    #expect(backoff.delay(beforeAttempt: 1_000_000) == .seconds(5), "no overflow, however long")
  }
}
