import FerryTestSupport
import Foundation
import SelectionBackendCore
import Testing

@testable import X11Selections

/// The hostile owner (`Tests/Peers/hostile_owner.c`), built once per test process with `cc`.
enum HostileOwner {
  private static let built = OnceOffThePool { try CompiledPeer.build("hostile_owner.c") }

  /// Starts it owning `selection` in `mode` and waits until it does.
  static func start(_ mode: String, selection: Selection, display: X11Display, xvfb: XvfbServer)
    async throws -> PeerProcess
  {
    let path = try await built.value
    let owner = try await startPeer([path, selection.rawValue, mode], display: xvfb.name)
    try await owner.expectOutput("ready")
    #expect(await display.waitForOwner(of: selection))
    return owner
  }
}

extension X11Display {
  /// How many conversions this display has asked owners for: one `MULTIPLE` request is one.
  var conversionCount: Int {
    get async throws { try await loop.perform { $0.reader.conversionCount } }
  }

  /// Reads in flight on this display, orphans included.
  var readsInFlight: Int {
    get async throws {
      try await loop.perform { $0.reader.pendingCount + $0.reader.multiples.count }
    }
  }

  /// Captures `offer` and says how many conversions the capture asked for.
  func countedCapture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target]? = nil, budget: Int,
    stepTimeout: Duration = .seconds(5)
  ) async throws -> (capture: OfferCapture, conversions: Int) {
    let before = try await conversionCount
    let capture = await capture(offer, targets: targets, budget: budget, stepTimeout: stepTimeout)
    return (capture, try await conversionCount - before)
  }
}

extension OfferCapture {
  /// Each target's data, by target name.
  var dataByTarget: [String: Data] {
    Dictionary(
      uniqueKeysWithValues: entries.compactMap { entry in entry.data.map { (entry.target.name, $0) }
      })
  }
}

/// The lines a peer printed that start with `prefix`, without it.
func lines(of peer: PeerProcess, startingWith prefix: String) -> [String] {
  peer.outputSoFar.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map {
    String($0.dropFirst(prefix.count))
  }
}

/// Whether the lines a peer printed that start with `prefix` come to be `expected` (its
/// output reaches the test a little after the peer printed it).
func waitForLines(
  of peer: PeerProcess, startingWith prefix: String, toBe expected: [String],
  timeout: Duration = .seconds(5)
) async -> Bool {
  await Deadline.wait(for: timeout) { () async -> Bool in
    lines(of: peer, startingWith: prefix) == expected
  }
}
