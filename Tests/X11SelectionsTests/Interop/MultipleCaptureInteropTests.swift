import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

/// A capture reads several targets in one `MULTIPLE` request when the owner lists it: Ferry's
/// own owner and GTK 3 (INCR members included, within a budget that never harms the owner),
/// and hostile owners that list `MULTIPLE` but refuse it, never answer it or answer it with a
/// broken list, which are then asked one target at a time. Each test has a selection of its
/// own, so they run in parallel. Qt, xclip and xsel own only `CLIPBOARD`-like selections:
/// their tests are in `ClipboardInteropTests+Multiple.swift`.
@Suite(.skipsWithoutPeers) struct MultipleCaptureInteropTests {
  @Test func ferrysOwnerIsCapturedInOneRequest() async throws {
    let (_, owner) = try await openDisplay()
    defer { owner.close() }
    let (_, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("multiferry")
    let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
    try await owner.own(
      selection,
      item: PasteboardItem(representations: [
        .data(Data("<p>ferry</p>".utf8), type: .html),
        .data(Data("ferry ünïcode".utf8), type: .utf8PlainText),
        .data(png, type: .png),
      ]))
    let offer = try await display.offer(of: selection)
    #expect(offer.convertsMultiple)
    let (capture, conversions) = try await display.countedCapture(offer, budget: 1 << 20)
    #expect(conversions == 1, "one MULTIPLE request for \(capture.entries.count) targets")
    #expect(
      capture.isComplete,
      "\(capture.entries.map { "\($0.target.name): \(String(describing: $0.failure))" })")
    #expect(capture.dataByTarget["text/html"] == Data("<p>ferry</p>".utf8))
    #expect(capture.dataByTarget["UTF8_STRING"] == Data("ferry ünïcode".utf8))
    #expect(capture.dataByTarget["image/png"] == png)
    #expect(try await display.readsInFlight == 0)
  }

  // MARK: GTK 3

  @Test func gtksOfferIsCapturedInOneRequest() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("multigtk")
    let text = "from gtk ünïcode"
    let owner = try await ScriptPeer.gtk.start(
      [
        "--selection", selection.rawValue, "own", text, "UTF8_STRING", "text/html",
        "application/x-ferry-test",
      ], display: xvfb.name)
    defer { owner.terminate() }
    try await owner.expectOutput("ready")

    let offer = try await display.offer(of: selection)
    #expect(offer.convertsMultiple)
    let (capture, conversions) = try await display.countedCapture(offer, budget: 1 << 20)
    #expect(conversions == 1)
    #expect(
      capture.entries.map(\.target.name) == [
        "UTF8_STRING", "text/html", "application/x-ferry-test",
      ])
    for entry in capture.entries {
      #expect(
        entry.data == Data(text.utf8), "\(entry.target.name): \(String(describing: entry.failure))")
    }
    // GTK saw one request for the data (after TARGETS), and converted each member of it.
    #expect(
      await waitForLines(of: owner, startingWith: "request ", toBe: ["TARGETS", "MULTIPLE"]),
      "\(owner.outputSoFar)")
    // GTK prints each "served" line after its reply is sent: it may come after the capture ends
    // (a clean-clone run read 1 of 3 at once).
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        lines(of: owner, startingWith: "served ").count == 3
      },
      "\(owner.outputSoFar)")
  }

  /// GTK sends members above about 256 KiB by INCR, each in its own property: they are read
  /// one after the other, and a member past the budget is drained, never abandoned — GTK
  /// still serves the whole copy afterwards.
  @Test(arguments: [64 << 20, (3 << 20) / 2, 1])
  func gtksIncrementalMembersAreReadOrDrainedWithinTheBudget(budget: Int) async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let scratch = try ScratchDirectory("multigtk")
    let payload = await RandomPayload.bytes(count: 1 << 20, seed: UInt64(budget))
    try payload.write(to: scratch.file("payload"))
    let selection = uniqueSelection("multigtkincr")
    let targets = ["application/x-ferry-a", "application/x-ferry-b", "application/x-ferry-c"]
    let owner = try await ScriptPeer.gtk.start(
      ["--selection", selection.rawValue, "own", "@" + scratch.file("payload").path] + targets,
      display: xvfb.name)
    defer { owner.terminate() }
    try await owner.expectOutput("ready")

    let offer = try await display.offer(of: selection)
    let (capture, conversions) = try await display.countedCapture(offer, budget: budget)
    #expect(conversions == 1)
    let kept = capture.entries.filter { $0.data != nil }
    #expect(
      kept.count == min(3, budget / payload.count),
      "\(capture.entries.map { String(describing: $0.failure) })")
    #expect(kept.allSatisfy { $0.data == payload })
    for entry in capture.entries where entry.data == nil {
      #expect(
        entry.failure == .tooLarge(limit: budget - kept.count * payload.count)
          || entry.failure == nil)
    }
    #expect(try await display.readsInFlight == 0, "every INCR member was finished")
    // GTK is free: the last target, drained or read, comes whole to a single request.
    let again = try await display.read(selection, target: targets[2], stepTimeout: .seconds(10))
    #expect(again.data == payload)
  }

  // MARK: Hostile owners

  /// Owners that list `MULTIPLE` but spoil it: each costs one request (and, when it never
  /// answers, one step's timeout), then the targets are asked one by one.
  ///
  /// The display's deadlines follow a clock only the test moves: the capture must end with the
  /// clock moved past one step's timeout for the owner that never answers, and not moved at
  /// all for the others. A capture that waited for more would never end.
  @Test(arguments: ["multiple-refused", "multiple-silent", "multiple-malformed"])
  func anOwnerThatSpoilsMultipleIsAskedForEachTargetOnItsOwn(mode: String) async throws {
    let clock = ManualClock()
    let (xvfb, display) = try await openDisplay(clock: clock)
    defer { display.close() }
    let selection = uniqueSelection("multihostile")
    let owner = try await HostileOwner.start(
      mode, selection: selection, display: display, xvfb: xvfb)
    defer { owner.terminate() }

    let offer = try await display.offer(of: selection)
    #expect(offer.convertsMultiple)
    let capturing = Task {
      try await display.countedCapture(offer, budget: 1 << 20, stepTimeout: .seconds(1))
    }
    if mode == "multiple-silent" {
      let askedForMultiple = await waitForLines(
        of: owner, startingWith: "request target=", toBe: ["TARGETS", "MULTIPLE"],
        timeout: .seconds(15))
      #expect(askedForMultiple, "\(owner.outputSoFar)")
      // The request is sent before its step timer is set, in the same X-thread job: once the
      // X thread has run a job after it, the deadline is measured from the clock's present.
      try await display.settleTimers()
      clock.advance(by: .seconds(1))
    }
    let ended = await capturing.ended(within: .seconds(30))
    #expect(ended != nil, "the capture ended after one step's timeout at most")
    guard let ended else { return }
    let (capture, conversions) = try ended.get()
    #expect(conversions == 3, "MULTIPLE, then UTF8_STRING and text/html")
    #expect(
      capture.dataByTarget["UTF8_STRING"] == Data("hostile but short".utf8), "\(capture.entries)")
    #expect(capture.dataByTarget["text/html"] == Data("<b>hostile but short</b>".utf8))
    let asked = ["TARGETS", "MULTIPLE", "UTF8_STRING", "text/html"]
    #expect(
      await waitForLines(of: owner, startingWith: "request target=", toBe: asked),
      "\(owner.outputSoFar)")
  }
}
