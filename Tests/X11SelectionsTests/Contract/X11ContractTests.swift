import FerryTestSupport
import FerryTestTraits
import Foundation
import SelectionBackendContract
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers
import X11Selections

/// The selection-backend contract on X11: `X11SelectionBackend` against an Xvfb of its own,
/// with `x11_contract_owner` (Tests/Peers) and xclip playing the other programs: each promise
/// of the seam on CLIPBOARD and PRIMARY (docs/SELECTION-BACKENDS.md).
@Suite(.serialized, .skipsWithoutPeers) struct X11ContractTests {
  @Test(arguments: SelectionBackendPromise.allCases, [SelectionRole.clipboard, .primary])
  func keeps(_ promise: SelectionBackendPromise, on role: SelectionRole) async throws {
    let driver = try await X11Driver.start()
    defer { driver.close() }
    try await SelectionBackendContract.check(promise, on: role, with: driver)
  }
}

/// The other side of an X display: `x11_contract_owner` owns with the targets it is given
/// (xclip, which sends INCR, when one target is past what one property holds), xclip reads.
final class X11Driver: SelectionBackendDriver {
  private static let server = OnceOffThePool { try XvfbServer.dedicated("X11ContractTests") }
  private static let owner = OnceOffThePool { try CompiledPeer.build("x11_contract_owner.c") }
  private static let hostile = OnceOffThePool { try CompiledPeer.build("hostile_owner.c") }

  let xvfb: XvfbServer
  let ownerPath: String
  let x11: X11SelectionBackend
  private let peers = TrackedMutex<[PeerProcess]>([])

  private init(xvfb: XvfbServer, ownerPath: String, backend: X11SelectionBackend) {
    self.xvfb = xvfb
    self.ownerPath = ownerPath
    self.x11 = backend
  }

  /// A backend on the suite's Xvfb (started on first use), and the owner peer built.
  static func start() async throws -> X11Driver {
    let xvfb = try await server.value
    let path = try await owner.value
    let name = xvfb.name
    let backend = try await DetachedThread.run { try X11SelectionBackend(displayName: name) }
    return X11Driver(xvfb: xvfb, ownerPath: path, backend: backend)
  }

  /// Ends the peers and closes the backend.
  func close() {
    peers.withLock { $0 }.forEach { $0.terminate() }
    x11.close()
  }

  var backend: any SelectionBackend { x11 }
  var expectedRoles: Set<SelectionRole> { [.clipboard, .primary, .secondary, .drag] }
  var knownGaps: [SelectionBackendPromise: String] { [:] }

  func makeBackend() async throws -> any SelectionBackend {
    let name = xvfb.name
    return try await DetachedThread.run { try X11SelectionBackend(displayName: name) }
  }

  func targetName(for type: UTType) -> String {
    switch type {
    case .utf8PlainText: "UTF8_STRING"
    default: type.preferredMIMEType ?? type.identifier
    }
  }

  private func selection(_ role: SelectionRole) -> String {
    switch role {
    case .clipboard: "CLIPBOARD"
    case .primary: "PRIMARY"
    case .secondary: "SECONDARY"
    case .drag: "XdndSelection"
    }
  }

  /// xclip's name for `role`'s selection; xclip knows no `XdndSelection`, which the contract
  /// never reads with a peer (a drop target reads it, during a drag).
  private func xclipSelection(_ role: SelectionRole) -> String {
    role == .clipboard ? "clipboard" : role == .primary ? "primary" : "secondary"
  }

  func peerCopies(_ role: SelectionRole, _ targets: [ContractTarget]) async throws {
    if targets.count == 1, let data = targets[0].data, data.count > 64 << 10 {
      // xclip stays in the foreground with -quiet, and sends what one property cannot hold
      // with INCR.
      let peer = try PeerProcess(
        ["xclip", "-quiet", "-i", "-selection", xclipSelection(role), "-t", targets[0].name],
        display: xvfb.name, input: data)
      peers.withLock { $0.append(peer) }
      let listed = await Deadline.wait(for: .seconds(10)) {
        (try? await self.peerListsTargets(role))?.contains(targets[0].name) == true
      }
      if !listed { throw ContractPeerFailed(message: "xclip did not take \(role)") }
      return
    }
    let peer = try PeerProcess(
      [ownerPath, selection(role)] + targets.map(\.peerArgument), display: xvfb.name)
    peers.withLock { $0.append(peer) }
    guard await peer.output("ready") else {
      throw ContractPeerFailed(message: "x11_contract_owner: \(peer.errorSoFar)")
    }
  }

  func peerStallsMidTransfer(_ role: SelectionRole) async throws -> String? {
    let hostile = try await Self.hostile.value
    let peer = try PeerProcess([hostile, selection(role), "stop-incr"], display: xvfb.name)
    peers.withLock { $0.append(peer) }
    guard await peer.output("ready") else {
      throw ContractPeerFailed(message: "hostile_owner: \(peer.errorSoFar)")
    }
    return "UTF8_STRING"
  }

  func peerListsTargets(_ role: SelectionRole) async throws -> [String]? {
    let listed = try await PeerProcess(
      ["xclip", "-o", "-selection", xclipSelection(role), "-t", "TARGETS"], display: xvfb.name
    ).finished(timeout: .seconds(20))
    guard listed.status == 0 else { return nil }
    return listed.stdoutText.split(separator: "\n").map(String.init)
  }

  func peerPastes(_ role: SelectionRole, _ target: String) async throws -> Data? {
    let pasted = try await PeerProcess(
      ["xclip", "-o", "-selection", xclipSelection(role), "-t", target], display: xvfb.name
    ).finished(timeout: .seconds(20))
    return pasted.status == 0 ? pasted.stdout : nil
  }

  func reset(_ role: SelectionRole) async throws {
    for peer in peers.withLock({ $0 }) { _ = await peer.stopped() }
    peers.withLock { $0 = [] }
    await x11.disown(role)
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
