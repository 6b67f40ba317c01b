import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

/// INCR against our own probe and against Ferry itself: where the owner switches to INCR,
/// how many chunks it sends, and that a requestor that stops reading costs only its own
/// transfer (ICCCM §2.7.2).
@Suite(.skipsWithoutPeers) struct IncrementalTransferTests {
  static func binaryItem(_ url: URL) -> PasteboardItem {
    PasteboardItem(representations: [.file(url, type: .data)])
  }

  /// The owner's INCR transfers in flight.
  static func transferCount(_ display: X11Display) async throws -> Int {
    try await display.loop.perform { $0.owner.transferCount }
  }

  /// Payloads of `requests` full requests plus `extra` bytes.
  @Test(arguments: [(requests: 1, extra: 0), (1, 1), (3, 5)])
  func theOwnerSwitchesToIncrAboveOneRequest(requests: Int, extra: Int) async throws {
    // A clock the test never moves: the transfer ends by being completed, not by its step
    // timeout.
    let (xvfb, display) = try await openDisplay(clock: ManualClock())
    defer { display.close() }
    let scratch = try ScratchDirectory("incr")
    let limit = try await display.maximumRequestBytes
    #expect(
      limit > 256 * 1024 && limit <= 16 << 20, "sized from the server's maximum request: \(limit)")
    let size = requests * limit + extra
    let payload = scratch.file("payload")
    try await RandomPayload.write(count: size, seed: UInt64(size), to: payload)
    let selection = uniqueSelection("incr")
    try await display.own(selection, item: Self.binaryItem(payload))

    let received = scratch.file("received")
    let reply = try await SelectionProbe.get(
      selection, "application/octet-stream", display: xvfb.name, outputFile: received)
    #expect(reply.type == "application/octet-stream" && reply.byteCount == size, "\(reply)")
    #expect(reply.wasIncremental == (size > limit), "\(reply)")
    #expect(reply.chunks == (size + limit - 1) / limit, "\(reply)")
    #expect(try await filesAreEqual(payload, received))
    #expect(
      await Deadline.wait(for: .seconds(30)) { (try? await Self.transferCount(display)) == 0 })
  }

  @Test func ferryReadsFerryByIncr() async throws {
    let (_, owner) = try await openDisplay()
    defer { owner.close() }
    let (_, reader) = try await openDisplay()
    defer { reader.close() }
    let limit = try await owner.maximumRequestBytes
    let payload = await RandomPayload.bytes(count: 2 * limit + 17, seed: 7)
    let selection = uniqueSelection("ferryincr")
    try await owner.own(
      selection, item: PasteboardItem(representations: [.data(payload, type: .data)]))
    let reply = try await reader.read(selection, target: "application/octet-stream")
    #expect(reply.wasIncremental)
    #expect(reply.type == "application/octet-stream" && reply.format == 8)
    #expect(reply.byteCount == payload.count)
    #expect(reply.data == payload)
  }

  /// One connection both owns and reads: the owner's INCR bookkeeping must not take away the
  /// event mask the reader needs on the same window.
  @Test func aDisplayReadsItsOwnSelectionByIncrTwice() async throws {
    let (_, display) = try await openDisplay()
    defer { display.close() }
    let limit = try await display.maximumRequestBytes
    let payload = await RandomPayload.bytes(count: limit + 1, seed: 11)
    let selection = uniqueSelection("selfincr")
    try await display.own(
      selection, item: PasteboardItem(representations: [.data(payload, type: .data)]))
    for _ in 0..<2 {
      let reply = try await display.read(
        selection, target: "application/octet-stream", stepTimeout: .seconds(3))
      #expect(reply.wasIncremental && reply.data == payload)
    }
    // And it still receives INCR from another owner afterwards.
    let (_, other) = try await openDisplay()
    defer { other.close() }
    let otherSelection = uniqueSelection("otherincr")
    try await other.own(
      otherSelection, item: PasteboardItem(representations: [.data(payload, type: .data)]))
    let reply = try await display.read(
      otherSelection, target: "application/octet-stream", stepTimeout: .seconds(3))
    #expect(reply.wasIncremental && reply.data == payload)
  }

  /// A requestor that vanishes mid-INCR leaves errors behind (its window is gone when the owner
  /// drops its event mask); they must not fail the next requestor's reply.
  @Test func aRequestorThatVanishesMidIncrDoesNotFailTheNextOne() async throws {
    // A clock the test never moves: the vanished requestor's transfer ends by its window's
    // destruction, not by the step timeout.
    let (xvfb, display) = try await openDisplay(clock: ManualClock())
    defer { display.close() }
    let limit = try await display.maximumRequestBytes
    let payload = await RandomPayload.bytes(count: 2 * limit + 1, seed: 13)
    let selection = uniqueSelection("vanish")
    try await display.own(
      selection,
      item: PasteboardItem(representations: [
        .data(payload, type: .data), .data(Data("next".utf8), type: .utf8PlainText),
      ]))
    let staller = try await SelectionProbe.start(
      ["stall", selection.rawValue, "application/octet-stream"], display: xvfb.name)
    try await staller.expectOutput("stalled bytes=\(limit)")
    _ = await staller.stopped(signal: SIGKILL)
    #expect(
      await Deadline.wait(for: .seconds(30)) { (try? await Self.transferCount(display)) == 0 })

    for _ in 0..<3 {
      let reply = try await SelectionProbe.get(selection, "UTF8_STRING", display: xvfb.name)
      #expect(reply.hex == utf8Hex("next"), "\(reply)")
    }
  }

  /// A requestor that reads the first chunk and never deletes it: a second requestor completes
  /// meanwhile, and the owner drops the stalled transfer when its clock reaches the step
  /// timeout (a manual clock: no five real seconds of waiting) — 5 s, or what the broker was
  /// told (`timeouts.serve`).
  @Test(arguments: [nil, .seconds(1)] as [Duration?])
  func aStalledRequestorIsDroppedAfterTheStepTimeout(configured: Duration?) async throws {
    let clock = ManualClock()
    let (xvfb, display) = try await openDisplay(clock: clock)
    defer { display.close() }
    if let configured { await display.setServingStepTimeout(configured) }
    let stepTimeout = configured ?? SelectionOwnerService.defaultStepTimeout
    let scratch = try ScratchDirectory("stall")
    let limit = try await display.maximumRequestBytes
    let payload = scratch.file("payload")
    try await RandomPayload.write(count: 2 * limit + 1, seed: 3, to: payload)
    let selection = uniqueSelection("stall")
    try await display.own(selection, item: Self.binaryItem(payload))

    let staller = try await SelectionProbe.start(
      ["stall", selection.rawValue, "application/octet-stream"], display: xvfb.name)
    defer { staller.terminate() }
    try await staller.expectOutput("stalled bytes=\(limit)")
    #expect(try await Self.transferCount(display) == 1)

    let received = scratch.file("received")
    let reply = try await SelectionProbe.get(
      selection, "application/octet-stream", display: xvfb.name, outputFile: received)
    #expect(reply.wasIncremental && reply.byteCount == fileSize(payload), "\(reply)")
    #expect(try await filesAreEqual(payload, received))

    clock.advance(by: stepTimeout - .milliseconds(100))
    try await display.settleTimers()
    #expect(try await Self.transferCount(display) == 1, "not before the step timeout")
    clock.advance(by: .milliseconds(200))
    let dropped = await Deadline.wait(for: .seconds(5)) {
      (try? await Self.transferCount(display)) == 0
    }
    #expect(dropped, "the stalled transfer is dropped")
    #expect(staller.process.isRunning, "the probe is still stalled, not gone")
    #expect(!staller.outputSoFar.contains("late-chunk"), "nothing written after the stall")
    // The owner goes on serving.
    let after = try await SelectionProbe.get(selection, "TIMESTAMP", display: xvfb.name)
    #expect(after.type == "INTEGER")
  }
}
