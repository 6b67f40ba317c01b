import FerryTestSupport
import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

@testable import WaylandSelections

/// Ferry's Wayland client with no compositor: a backend on one end of a socket pair, and a
/// test on the other (`FakeCompositor`) that answers its setup and then writes malformed
/// events. Each ends the connection with an error that names what was wrong — read from
/// `connectionFailure`, and every call after fails with `connectionLost` — never a trap, a
/// hang or a wrong read; an owner's excess (20,000 types) costs its offer's tail, not the
/// connection.
@Suite struct HostileCompositorTests {
  /// A backend connected to a fake compositor that has set it up.
  struct Connected {
    var compositor: FakeCompositor
    var backend: WaylandSelectionBackend

    static func start() async throws -> Connected {
      let compositor = try FakeCompositor()
      return Connected(compositor: compositor, backend: try await compositor.connectBackend())
    }

    /// Waits for the connection to end, and returns why.
    func failure(within limit: Duration = .seconds(10)) async -> String? {
      var failure: String?
      _ = await Deadline.wait(for: limit) {
        failure = backend.connectionFailure
        return failure != nil
      }
      return failure
    }

    func stop() {
      backend.close()
      compositor.close()
    }
  }

  /// Writes what `bytes` makes (given the compositor, for its objects' ids) after setup, and
  /// expects the connection to end saying `expected` about the message at `fault`, counted
  /// from the first byte written.
  private func expectEnds(
    saying expected: String, at fault: Int? = 0, sourceLocation: SourceLocation = #_sourceLocation,
    after bytes: (FakeCompositor) -> [UInt8]
  ) async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    let before = connected.compositor.bytesWritten
    connected.compositor.write(bytes(connected.compositor))
    let failure = await connected.failure()
    #expect(
      failure?.contains(expected) == true, "ended with \(failure ?? "nothing")",
      sourceLocation: sourceLocation)
    if let fault {
      #expect(
        failure?.contains("at byte \(before + fault):") == true,
        "the offset of \(failure ?? "nothing"), \(before) bytes before",
        sourceLocation: sourceLocation)
    }
    await #expect(throws: BackendError.connectionLost, sourceLocation: sourceLocation) {
      _ = try await connected.backend.owner(of: .clipboard)
    }
  }

  @Test func setUpOverASocketPairSeesEmptySelections() async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    #expect(await connected.backend.protocolName == "zwlr_data_control_manager_v1 v2")
    #expect(try await connected.backend.owner(of: .clipboard) == nil)
    #expect(connected.backend.connectionFailure == nil)
  }

  @Test func aSizeShorterThanTheHeader() async throws {
    try await expectEnds(saying: "a message of 4 bytes, shorter than its 8-byte header") { _ in
      WaylandBytes.message(object: 1, opcode: 1, [.uint(3)], size: 4)
    }
  }

  @Test func aSizePastTheLargestMessage() async throws {
    // The rest never comes: waiting for it would hang the connection.
    try await expectEnds(
      saying: "a message of 65532 bytes, past the largest a compositor sends (4096)"
    ) { _ in WaylandBytes.message(object: 1, opcode: 1, size: 65532) }
  }

  @Test func anObjectNeverCreated() async throws {
    try await expectEnds(saying: "an event for object 1234, which this client never made") { _ in
      WaylandBytes.message(object: 1234, opcode: 0, [.uint(0)])
    }
  }

  @Test func anOpcodePastTheInterfacesEvents() async throws {
    try await expectEnds(saying: "event 7 of data_control_device") { compositor in
      WaylandBytes.message(object: compositor.dataDevice, opcode: 7)
    }
    try await expectEnds(saying: "event 0 of data_control_manager") { compositor in
      WaylandBytes.message(object: compositor.manager, opcode: 0)
    }
  }

  @Test func aSendWhoseDescriptorNeverCame() async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    try await connected.backend.own(
      .clipboard,
      item: PasteboardItem(representations: [.data(Data("x".utf8), type: .utf8PlainText)]))
    let source = try #require(connected.compositor.dataSources.first)
    connected.compositor.write(
      WaylandBytes.message(object: source, opcode: 0, [.string("text/plain;charset=utf-8")]))
    let failure = await connected.failure()
    #expect(
      failure?.contains("data_control_source.send promises a descriptor that did not come with it")
        == true, "\(failure ?? "nothing")")
  }

  @Test func tenThousandOffersNoSelectionTakes() async throws {
    let first = 64 * 12  // the 65th offer is refused
    try await expectEnds(
      saying: "data_offer makes a live offer past the 64 that no selection took", at: first
    ) { compositor in
      (0..<UInt32(10_000)).flatMap { index in
        WaylandBytes.message(object: compositor.dataDevice, opcode: 0, [.uint(0xFF00_0000 + index)])
      }
    }
  }

  @Test func anOfferMadeTwice() async throws {
    try await expectEnds(
      saying: "data_offer makes offer 4278190080, which is live already", at: 12
    ) { compositor in
      let offer = WaylandBytes.message(
        object: compositor.dataDevice, opcode: 0, [.uint(0xFF00_0000)])
      return offer + offer
    }
  }

  @Test func aMIMENameOf64KiB() async throws {
    // Its size does not fit the header's 16 bits: the string overruns the message.
    try await expectEnds(
      saying: "data_control_offer.offer sends a string of 65537 bytes, past the message's end",
      at: 12
    ) { compositor in
      WaylandBytes.message(object: compositor.dataDevice, opcode: 0, [.uint(0xFF00_0000)])
        + WaylandBytes.message(
          object: 0xFF00_0000, opcode: 0, [.string(String(repeating: "m", count: 65536))])
    }
  }

  @Test func aStringWithoutItsNUL() async throws {
    try await expectEnds(saying: "sends a string of 8 bytes not ended by a NUL", at: 12) {
      compositor in
      WaylandBytes.message(object: compositor.dataDevice, opcode: 0, [.uint(0xFF00_0000)])
        + WaylandBytes.message(
          object: 0xFF00_0000, opcode: 0, [.uint(8), .raw(Array("text/png".utf8))])
    }
  }

  @Test func aStringLongerThanItsMessage() async throws {
    try await expectEnds(
      saying: "wl_registry.global sends a string of 4000 bytes, past the message's end"
    ) { _ in WaylandBytes.message(object: 2, opcode: 0, [.uint(9), .uint(4000), .uint(1)]) }
  }

  @Test func aSelectionOfTheSeat() async throws {
    try await expectEnds(saying: "selection names object") { compositor in
      WaylandBytes.message(object: compositor.dataDevice, opcode: 1, [.uint(compositor.seat)])
    }
  }

  @Test func aCompositorThatClosesMidMessage() async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    let offer = WaylandBytes.message(
      object: connected.compositor.dataDevice, opcode: 0, [.uint(0xFF00_0000)])
    connected.compositor.write(Array(offer.prefix(10)))
    connected.compositor.hangUp()
    let failure = await connected.failure()
    #expect(
      failure?.contains(
        "the connection closed 10 bytes into a message of the 12 its header announced")
        == true, "\(failure ?? "nothing")")
  }

  @Test func aCompositorThatClosesBetweenMessages() async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    connected.compositor.hangUp()
    #expect(await connected.failure() == "the Wayland compositor closed the connection")
  }

  @Test func anIdDeletedThatTheClientNeverMade() async throws {
    try await expectEnds(saying: "delete_id names object 77, which this client has no use of") {
      _ in WaylandBytes.message(object: 1, opcode: 1, [.uint(77)])
    }
  }

  @Test func theCompositorsOwnErrorIsTheReason() async throws {
    try await expectEnds(
      saying:
        "the Wayland compositor ended the connection: error 1 on object 5: source already used",
      at: nil
    ) { _ in
      WaylandBytes.message(
        object: 1, opcode: 0, [.uint(5), .uint(1), .string("source already used")])
    }
  }

  @Test func descriptorsNoEventClaims() async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    var pipes: [Int32] = []
    for _ in 0..<3 {
      var ends: [Int32] = [-1, -1]
      try #require(pipe(&ends) == 0)
      pipes += ends
    }
    defer { pipes.forEach { _ = close($0) } }
    // 66 copies of six descriptors, with a harmless event each time to carry them.
    for _ in 0..<11 {
      connected.compositor.write(
        WaylandBytes.message(object: connected.compositor.seat, opcode: 0, [.uint(0)]),
        descriptors: pipes)
    }
    let failure = await connected.failure()
    #expect(
      failure?.contains("descriptors came that no event claims") == true, "\(failure ?? "nothing")")
  }

  /// 20,000 types on one offer are the owner's doing, not the compositor's: the connection
  /// lasts, and the offer keeps the first 512 and the well-known types after them.
  @Test func twentyThousandTypesCostTheOffersTailNotTheConnection() async throws {
    let connected = try await Connected.start()
    defer { connected.stop() }
    let offer: UInt32 = 0xFF00_0000
    let device = connected.compositor.dataDevice
    var bytes = WaylandBytes.message(object: device, opcode: 0, [.uint(offer)])
    for index in 0..<20_000 {
      bytes += WaylandBytes.message(
        object: offer, opcode: 0, [.string("application/x-bogus-\(index)")])
    }
    bytes += WaylandBytes.message(object: offer, opcode: 0, [.string("text/plain;charset=utf-8")])
    bytes += WaylandBytes.message(object: device, opcode: 1, [.uint(offer)])  // selection
    connected.compositor.write(bytes)
    var offered: OwnerOffer?
    let seen = await Deadline.wait(for: .seconds(20)) {
      offered = try? await connected.backend.offer(of: .clipboard, stepTimeout: .seconds(2))
      return offered != nil
    }
    try #require(seen, "the offer was never current: \(connected.backend.connectionFailure ?? "")")
    #expect(connected.backend.connectionFailure == nil)
    #expect(offered?.advertised.count == OwnerOffer.maximumTargets + 1)
    #expect(offered?.advertised.last == "text/plain;charset=utf-8")
    #expect(offered?.essentialTargets.contains { $0.type == .utf8PlainText } == true)
    let kept = try await connected.backend.connection.perform { $0.state.offers[offer]?.count }
    #expect(kept == OwnerOffer.maximumTargets + 1, "the state keeps no more than the offer")
  }

  // MARK: Release

  /// A closed backend, its connection, state and wire are freed — even when a lost handler
  /// holds the backend (the daemon's did): the state lets go of its handlers as it shuts
  /// down. Before, each daemon left the four at exit (LeakSanitizer).
  @Test func aClosedBackendIsFreedWithItsConnection() async throws {
    let compositor = try FakeCompositor()
    defer { compositor.close() }
    let refs = WeakReferences()
    do {
      let backend = try await compositor.connectBackend()
      backend.onConnectionLost { _ = backend }
      _ = try await backend.owner(of: .clipboard)  // the handler is in place
      refs.hold(backend)
      backend.close()
    }
    let freed = await Deadline.wait(for: .seconds(10)) { refs.allFreed }
    #expect(freed, "still alive: \(refs.alive)")
  }

  /// The same once the compositor went away first: the handlers were called, then let go.
  @Test func aLostBackendIsFreedWithItsConnection() async throws {
    let compositor = try FakeCompositor()
    let refs = WeakReferences()
    let told = TrackedMutex(0)
    do {
      let backend = try await compositor.connectBackend()
      backend.onConnectionLost {
        _ = backend
        told.withLock { $0 += 1 }
      }
      _ = try await backend.owner(of: .clipboard)
      refs.hold(backend)
      compositor.close()
      #expect(await Deadline.wait(for: .seconds(10)) { backend.connectionFailure != nil })
    }
    let freed = await Deadline.wait(for: .seconds(10)) { refs.allFreed }
    #expect(freed, "still alive: \(refs.alive)")
    #expect(told.withLock { $0 } == 1)
  }
}

/// Weak references to a backend and what it is made of.
private final class WeakReferences: @unchecked Sendable {
  private let lock = NSLock()
  private weak var backend: WaylandSelectionBackend?
  private weak var connection: WaylandConnection?
  private weak var state: WaylandState?
  private weak var wire: WaylandWire?

  func hold(_ backend: WaylandSelectionBackend) {
    lock.withLock {
      self.backend = backend
      connection = backend.connection
      state = backend.connection.state
      wire = backend.connection.wire
    }
  }

  var alive: [String] {
    lock.withLock {
      [
        backend.map { _ in "backend" }, connection.map { _ in "connection" },
        state.map { _ in "state" }, wire.map { _ in "wire" },
      ].compactMap { $0 }
    }
  }

  var allFreed: Bool { alive.isEmpty }
}
