import FerryTestSupport
import Foundation
import SelectionBackendContract
import SelectionBackendCore
import SelectionBackendEmbedded
import Testing
import UniformTypeIdentifiers

/// The selection-backend contract on the embedded display server, every timeout on a manual
/// clock: each promise of the seam on each of its roles (docs/SELECTION-BACKENDS.md).
@Suite struct EmbeddedContractTests {
  @Test(
    arguments: SelectionBackendPromise.allCases, [SelectionRole.clipboard, .primary, .secondary])
  func keeps(_ promise: SelectionBackendPromise, on role: SelectionRole) async throws {
    try await SelectionBackendContract.check(promise, on: role, with: EmbeddedDriver())
  }
}

/// The other side of the embedded display server: its own peer API, a fresh display for each
/// check (so a check may close it), and a manual clock the driver moves.
struct EmbeddedDriver: SelectionBackendDriver {
  let clock = ManualClock()
  let embedded: EmbeddedSelectionBackend<ManualClock>

  init() { embedded = EmbeddedSelectionBackend(clock: clock) }

  var backend: any SelectionBackend { embedded }
  var expectedRoles: Set<SelectionRole> { [.clipboard, .primary, .secondary] }
  var movesTheClock: Bool { true }

  /// The display is the backend: the check that closes one closes this check's own.
  func makeBackend() -> any SelectionBackend { embedded }

  func targetName(for type: UTType) -> String { type.identifier }

  func peerCopies(_ role: SelectionRole, _ targets: [ContractTarget]) {
    embedded.peerCopies(
      role,
      targets.map { target in
        EmbeddedPeerTarget(target.name, UTType(mimeType: target.name) ?? .data, target.data)
      })
  }

  func peerListsTargets(_ role: SelectionRole) -> [String]? { embedded.peerListsTargets(role) }

  func peerPastes(_ role: SelectionRole, _ target: String) async -> Data? {
    try? await embedded.peerPastes(role, target)
  }

  func reset(_ role: SelectionRole) async {
    await embedded.disown(role)
    embedded.peerExits(role)
  }

  /// Moves the clock on in steps of 50 ms while `operation` sleeps on it, until it ends.
  func waitingOutStepTimeouts<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async
    -> (T, Duration)
  {
    let done = Shared(false)
    let running = Task {
      let result = await operation()
      done.withLock { $0 = true }
      return result
    }
    let start = clock.now
    while !done.current {
      let asleep = await Deadline.wait(for: .seconds(10)) {
        clock.sleeperCount > 0 || done.current
      }
      guard asleep, !done.current else { break }
      clock.advance(by: .milliseconds(50))
    }
    let result = await running.value
    return (result, start.duration(to: clock.now))
  }
}
