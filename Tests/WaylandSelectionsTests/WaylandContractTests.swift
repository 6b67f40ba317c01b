import FerryTestSupport
import FerryTestTraits
import Foundation
import SelectionBackendContract
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers
import WaylandSelections

/// The selection-backend contract on Wayland: `WaylandSelectionBackend` against a headless
/// sway of its own, with `wl_contract_owner` (Tests/Peers) and wl-paste playing the other
/// programs: each promise of the seam on the clipboard and the primary selection
/// (docs/SELECTION-BACKENDS.md).
@Suite(.serialized, .skipsWithoutPeers) struct WaylandContractTests {
  @Test(arguments: SelectionBackendPromise.allCases, [SelectionRole.clipboard, .primary])
  func keeps(_ promise: SelectionBackendPromise, on role: SelectionRole) async throws {
    let driver = try await WaylandDriver.start()
    defer { driver.close() }
    try await SelectionBackendContract.check(promise, on: role, with: driver)
  }
}

/// The other side of a compositor: `wl_contract_owner` owns with the MIME types it is given,
/// wl-paste reads, wl-copy clears.
final class WaylandDriver: SelectionBackendDriver {
  let session: WaylandSession
  let ownerPath: String
  let wayland: WaylandSelectionBackend
  private let peers = TrackedMutex<[PeerProcess]>([])

  private init(session: WaylandSession, ownerPath: String, backend: WaylandSelectionBackend) {
    self.session = session
    self.ownerPath = ownerPath
    self.wayland = backend
  }

  /// A backend on the suite's compositor (started on first use), and the owner peer built
  /// where the compositor's user can run it (its home: `/tmp` is another inside the session).
  static func start() async throws -> WaylandDriver {
    let session = try await WaylandSession.dedicated("WaylandContractTests")
    let built = try await DetachedThread.run {
      try CompiledPeer.build(
        "wl_contract_owner.c",
        packageSources: ["Sources/CWaylandDataControl/wlr-data-control-unstable-v1-protocol.c"],
        includes: ["Sources/CWaylandDataControl/include"], libraries: ["wayland-client"])
    }
    let path =
      "\(session.directory)/home/wl_contract_owner-\((built as NSString).lastPathComponent)"
    if !FileManager.default.isExecutableFile(atPath: path) {
      try? FileManager.default.removeItem(atPath: path + ".part")
      try FileManager.default.copyItem(atPath: built, toPath: path + ".part")
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: path + ".part")
      try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
    }
    let backend = try WaylandSelectionBackend(socket: session.socketPath)
    return WaylandDriver(session: session, ownerPath: path, backend: backend)
  }

  /// Ends the peers and closes the backend.
  func close() {
    peers.withLock { $0 }.forEach { $0.terminate() }
    wayland.close()
  }

  var backend: any SelectionBackend { wayland }
  var expectedRoles: Set<SelectionRole> { [.clipboard, .primary] }
  var knownGaps: [SelectionBackendPromise: String] { [:] }

  func makeBackend() async throws -> any SelectionBackend {
    try WaylandSelectionBackend(socket: session.socketPath)
  }

  func targetName(for type: UTType) -> String {
    switch type {
    case .utf8PlainText: "text/plain;charset=utf-8"
    default: type.preferredMIMEType ?? type.identifier
    }
  }

  private func primaryFlag(_ role: SelectionRole) -> [String] {
    role == .primary ? ["--primary"] : []
  }

  func peerCopies(_ role: SelectionRole, _ targets: [ContractTarget]) async throws {
    try await startOwner(role, spec: targets.map(\.peerArgument))
  }

  /// Starts `wl_contract_owner` with the targets as `spec` gives them (`NAME~COUNT`: a
  /// transfer that stalls after COUNT bytes), and waits until it owns `role`.
  private func startOwner(_ role: SelectionRole, spec: [String]) async throws {
    let peer = try await session.peer(
      [ownerPath, role == .primary ? "primary" : "clipboard"] + spec)
    peers.withLock { $0.append(peer) }
    guard await peer.output("ready") else {
      throw ContractPeerFailed(message: "wl_contract_owner: \(peer.errorSoFar)")
    }
  }

  func peerStallsMidTransfer(_ role: SelectionRole) async throws -> String? {
    let name = "application/x-ferry-contract-midway"
    try await startOwner(role, spec: ["\(name)~4096"])
    return name
  }

  func peerListsTargets(_ role: SelectionRole) async throws -> [String]? {
    let listed = try await session.run(["wl-paste", "--list-types"] + primaryFlag(role))
    guard listed.status == 0 else { return nil }
    return listed.stdoutText.split(separator: "\n").map(String.init)
  }

  func peerPastes(_ role: SelectionRole, _ target: String) async throws -> Data? {
    let pasted = try await session.run(
      ["wl-paste", "--no-newline", "--type", target] + primaryFlag(role))
    return pasted.status == 0 ? pasted.stdout : nil
  }

  func reset(_ role: SelectionRole) async throws {
    for peer in peers.withLock({ $0 }) { _ = await peer.stopped() }
    peers.withLock { $0 = [] }
    await wayland.disown(role)
    if try await peerListsTargets(role) != nil {
      _ = try await session.run(["wl-copy", "--clear"] + primaryFlag(role))
    }
    let free = await Deadline.wait(for: .seconds(10)) {
      (try? await self.peerListsTargets(role)) == nil
    }
    if !free { throw ContractPeerFailed(message: "\(role) is still owned after a reset") }
  }

  func waitingOutStepTimeouts<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async
    -> (T, Duration)
  {
    await measuringOnTheContinuousClock(operation)
  }
}

/// A peer of the contract did not start as it should.
struct ContractPeerFailed: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
