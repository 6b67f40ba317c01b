import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing

@testable import X11Selections

/// How many requests the owner makes per answer, counted by request serial numbers on its
/// connection: the counts are the contract, never the time. A round trip (`XSync`) would add
/// a `GetInputFocus`; the owner makes one only to announce an INCR transfer.
@Suite(.skipsWithoutPeers) struct OwnerRequestCountTests {
  /// The requests `display` made while `body` ran, once its INCR transfers are over.
  ///
  /// The display's deadlines follow a clock the test never moves: a transfer ends by being
  /// completed, never by its step timeout, however long the wait for it.
  private func requests(of display: X11Display, during body: () async throws -> Void) async throws
    -> Int
  {
    let before = try await display.loop.perform { $0.connection.nextRequestSerial }
    try await body()
    #expect(
      await Deadline.wait(for: .seconds(30)) {
        (try? await display.loop.perform { $0.owner.transferCount }) == 0
      })
    let after = try await display.loop.perform { $0.connection.nextRequestSerial }
    return Int(after) - Int(before)
  }

  /// A reply in one request is the property and the `SelectionNotify`: nothing waits for the
  /// server (100 requestors at once were answered a round trip apart). The first read learns
  /// the target's name and is not counted.
  @Test func aReplyInOneRequestIsTwoRequests() async throws {
    let (xvfb, display) = try await openDisplay(clock: ManualClock())
    defer { display.close() }
    let selection = uniqueSelection("onerequest")
    try await display.own(selection, item: textItem("two requests"))
    var counts: [Int] = []
    for _ in 0..<2 {
      counts.append(
        try await requests(of: display) {
          let reply = try await SelectionProbe.get(selection, "UTF8_STRING", display: xvfb.name)
          #expect(reply.hex == utf8Hex("two requests"), "\(reply)")
        })
    }
    #expect(counts[1] == 2, "ChangeProperty and SendEvent: \(counts)")
  }

  /// Each INCR chunk is one request, its `ChangeProperty`: between deletions the owner waits
  /// for nothing else. Two transfers two chunks apart are two requests apart; the first
  /// transfer, which learns the target's name, is not compared.
  @Test func eachChunkIsOneRequest() async throws {
    let (xvfb, display) = try await openDisplay(clock: ManualClock())
    defer { display.close() }
    let scratch = try ScratchDirectory("requests")
    let limit = try await display.maximumRequestBytes
    var counts: [Int] = []
    for chunks in [2, 2, 4] {
      let payload = scratch.file("payload\(chunks)")
      try await RandomPayload.write(count: chunks * limit, seed: UInt64(chunks), to: payload)
      let selection = uniqueSelection("requests")
      try await display.own(
        selection, item: PasteboardItem(representations: [.file(payload, type: .data)]))
      counts.append(
        try await requests(of: display) {
          let reply = try await SelectionProbe.get(
            selection, "application/octet-stream", display: xvfb.name,
            outputFile: scratch.file("received"))
          #expect(reply.chunks == chunks, "\(reply)")
        })
    }
    #expect(counts[2] - counts[1] == 2, "requests per transfer of 2, 2 and 4 chunks: \(counts)")
  }
}
