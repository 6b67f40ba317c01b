import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@testable import X11Selections

/// Ferry as requestor against owners that misbehave: one that never answers, and none at all.
/// A read must fail with a clear error, never hang.
@Suite(.skipsWithoutPeers) struct RequestorTimeoutTests {
  /// Starts our probe as an owner that takes `selection` and ignores every request.
  private func silentOwner(_ selection: Selection, display: X11Display, xvfb: XvfbServer)
    async throws -> PeerProcess
  {
    let owner = try await SelectionProbe.start(["own", selection.rawValue], display: xvfb.name)
    try await owner.expectOutput("owned window=")
    #expect(await display.waitForOwner(of: selection))
    return owner
  }

  /// The step timeout is measured on the display's clock: the read fails when the clock
  /// reaches it, not before. The timeout is an hour, so only the clock can reach it here.
  @Test func theStepTimeoutFollowsTheDisplaysClock() async throws {
    let clock = ManualClock()
    let (xvfb, display) = try await openDisplay(clock: clock)
    defer { display.close() }
    let selection = uniqueSelection("clocked")
    let owner = try await silentOwner(selection, display: display, xvfb: xvfb)
    defer { owner.terminate() }

    let read = Task {
      try await display.read(selection, target: "UTF8_STRING", stepTimeout: .seconds(3600))
    }
    #expect(
      await owner.output("ignored target=UTF8_STRING", timeout: .seconds(15)),
      "the request reached the owner")
    try await display.settleTimers()  // the step timer is set after the request is sent
    clock.advance(by: .seconds(3600) - .milliseconds(100))
    try await display.settleTimers()
    #expect(
      try await display.loop.perform { $0.reader.pendingCount } == 1,
      "still waiting short of the timeout")

    clock.advance(by: .milliseconds(200))
    let ended = await read.ended(within: .seconds(30))
    #expect(ended != nil, "the display's clock, not an hour of waiting, ended the read")
    guard let ended else { return }
    let error = #expect(throws: X11Error.self) { try ended.get() }
    guard case .timedOut = error else {
      Issue.record("expected a timeout, got \(String(describing: error))")
      return
    }
    #expect(try await display.loop.perform { $0.reader.pendingCount } == 0)
  }

  @Test func anOwnerThatNeverAnswersTimesOut() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("silent")
    let owner = try await silentOwner(selection, display: display, xvfb: xvfb)
    defer { owner.terminate() }

    let start = ContinuousClock.now
    let error = await #expect(throws: X11Error.self) {
      try await display.read(selection, target: "UTF8_STRING", stepTimeout: .milliseconds(500))
    }
    let elapsed = ContinuousClock.now - start
    guard case .timedOut = error else {
      Issue.record("expected a timeout, got \(String(describing: error))")
      return
    }
    #expect(elapsed >= .milliseconds(450), "never before its timeout: \(elapsed)")
    #expect(
      await owner.output("ignored target=UTF8_STRING", timeout: .seconds(2)),
      "the request reached the owner")
  }

  @Test func readTextAndTargetsTimeOutToo() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("silenttext")
    let owner = try await silentOwner(selection, display: display, xvfb: xvfb)
    defer { owner.terminate() }

    let textError = await #expect(throws: X11Error.self) {
      try await display.readText(selection, stepTimeout: .milliseconds(300))
    }
    guard case .timedOut = textError else {
      Issue.record("readText: expected a timeout, got \(String(describing: textError))")
      return
    }
    let targetsError = await #expect(throws: X11Error.self) {
      try await display.targets(of: selection, stepTimeout: .milliseconds(300))
    }
    guard case .timedOut = targetsError else {
      Issue.record("targets: expected a timeout, got \(String(describing: targetsError))")
      return
    }
    // One timeout, not one per text target: the owner was asked for UTF8_STRING alone before
    // TARGETS (it prints each request as it comes, in order).
    #expect(
      await waitForLines(
        of: owner, startingWith: "ignored target=", toBe: ["UTF8_STRING", "TARGETS"],
        timeout: .seconds(15)),
      "\(owner.outputSoFar)")
  }

  @Test func theConnectionStillWorksAfterATimeout() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let silent = uniqueSelection("silentthen")
    let owner = try await silentOwner(silent, display: display, xvfb: xvfb)
    defer { owner.terminate() }
    _ = try? await display.read(silent, target: "UTF8_STRING", stepTimeout: .milliseconds(200))

    let working = uniqueSelection("working")
    try await display.own(working, item: textItem("fine"))
    #expect(try await display.readText(working, stepTimeout: .seconds(3)) == "fine")
  }

  @Test func aSelectionWithoutOwnerFailsAtOnce() async throws {
    let (_, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("nobody")
    // With a step timeout of a minute: `noOwner`, not `timedOut`, shows the read did not wait
    // for it.
    await #expect(throws: X11Error.noOwner(selection)) {
      try await display.read(selection, target: "UTF8_STRING", stepTimeout: .seconds(60))
    }
  }

  @Test func aRefusedTargetIsReportedAsRefused() async throws {
    let (_, owner) = try await openDisplay()
    defer { owner.close() }
    let (_, reader) = try await openDisplay()
    defer { reader.close() }
    let selection = uniqueSelection("refused")
    try await owner.own(selection, item: textItem("text only"))
    await #expect(throws: X11Error.refused(selection: selection, target: "image/png")) {
      try await reader.read(selection, target: "image/png")
    }
  }
}
