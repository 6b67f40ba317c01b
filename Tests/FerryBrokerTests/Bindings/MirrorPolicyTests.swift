import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// The mirror policy as a value: events in, actions out, no backend and no clock.
@Suite struct MirrorPolicyTests {
  private let ownerA = OwnerToken(owner: 0xA, generation: 1)
  private let ownerB = OwnerToken(owner: 0xB, generation: 2)
  private let items = (0..<4).map { _ in PasteboardItem(representations: []) }

  private func capture(_ text: String) -> OfferCapture {
    let target = OwnerOffer.Target(name: "UTF8_STRING", type: .utf8PlainText)
    return OfferCapture(
      offer: OwnerOffer(role: .clipboard, targets: [target]),
      entries: [.init(target: target, data: Data(text.utf8))])
  }

  private func id(_ index: Int) -> ObjectIdentifier { ObjectIdentifier(items[index]) }

  /// A policy that mirrors `text` from owner A as item 0 at change count 1.
  private func mirroring(_ text: String = "a") -> MirrorPolicy {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerA)
    _ = policy.captureEnded(1, capture(text), changeCount: 0)
    _ = policy.recorded(item: id(0), changeCount: 1)
    return policy
  }

  @Test func aClientsWriteIsServedAndAClearDisowns() {
    var policy = MirrorPolicy()
    #expect(policy.pasteboardChanged(top: id(1)) == [.serve(id(1))])
    #expect(policy.pasteboardChanged(top: nil) == [.disown])
  }

  @Test func aNewOwnerIsCapturedThenRecorded() {
    var policy = MirrorPolicy()
    #expect(policy.ownerChanged(ownerA) == [.startCapture(id: 1, owner: ownerA)])
    #expect(policy.captureEnded(1, capture("a"), changeCount: 0) == [.record(id: 1)])
    #expect(policy.recorded(item: id(0), changeCount: 1).isEmpty)
    #expect(policy.mirror?.owner == ownerA)
    #expect(policy.mirror?.changeCount == 1)
  }

  @Test func theMirroredItemIsNotServedAgain() {
    var policy = mirroring()
    #expect(policy.pasteboardChanged(top: id(0)).isEmpty)
  }

  /// An item's identity is its address: once the mirrored item is off the pasteboard and
  /// freed, a client's later item can have the same one (after an xclip copy, every other
  /// `pbcopy` stayed off the selection). It is served all the same.
  @Test func aClientsItemWithTheIdentityOfAMirrorGoneIsServed() {
    var policy = mirroring()
    #expect(policy.pasteboardChanged(top: id(1)) == [.serve(id(1))])
    #expect(policy.pasteboardChanged(top: id(0)) == [.serve(id(0))])
    var restoring = MirrorPolicy()
    restoring.restored(item: id(3))
    #expect(restoring.pasteboardChanged(top: nil) == [.disown])
    #expect(restoring.pasteboardChanged(top: id(3)) == [.serve(id(3))])
  }

  @Test func theSameOwnershipToldTwiceIsOneCapture() {
    var policy = mirroring()
    #expect(policy.ownerChanged(ownerA).isEmpty)
    var capturing = MirrorPolicy()
    _ = capturing.ownerChanged(ownerA)
    #expect(capturing.ownerChanged(ownerA).isEmpty)
  }

  @Test func aNewerOwnerSupersedesACaptureInProgress() {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerA)
    #expect(
      policy.ownerChanged(ownerB) == [.cancelCapture(id: 1), .startCapture(id: 2, owner: ownerB)])
    #expect(
      policy.captureEnded(1, capture("a"), changeCount: 0).isEmpty,
      "the superseded capture is dropped")
    #expect(policy.captureEnded(2, capture("b"), changeCount: 0) == [.record(id: 2)])
  }

  @Test func theSameBytesFromANewOwnerAreNotAChange() {
    var policy = mirroring("same")
    _ = policy.ownerChanged(ownerB)
    #expect(policy.captureEnded(2, capture("same"), changeCount: 1).isEmpty)
    #expect(policy.mirror?.owner == ownerB)
    _ = policy.ownerChanged(ownerA)
    #expect(policy.captureEnded(3, capture("other"), changeCount: 1) == [.record(id: 3)])
  }

  @Test func theSameBytesAfterAClientsWriteAreAChange() {
    var policy = mirroring("same")
    _ = policy.ownerChanged(ownerB)
    #expect(
      policy.captureEnded(2, capture("same"), changeCount: 2) == [.record(id: 2)],
      "the pasteboard moved on since")
  }

  @Test func aGoneOwnersCopyIsTakenOver() {
    var policy = mirroring()
    #expect(policy.ownerGone() == [.takeOver(ifChangeCountIs: 1)])
    policy.tookOver(item: id(2))
    #expect(policy.mirror?.owner == OwnerToken.none)
    #expect(policy.pasteboardChanged(top: id(2)).isEmpty, "the copy taken over is not served twice")
  }

  @Test func nothingIsTakenOverWithoutACopy() {
    var policy = MirrorPolicy()
    #expect(policy.ownerGone().isEmpty)
    var empty = MirrorPolicy()
    _ = empty.ownerChanged(ownerA)
    let target = OwnerOffer.Target(name: "UTF8_STRING", type: .utf8PlainText)
    let recordedOnly = OfferCapture(
      offer: OwnerOffer(role: .primary, targets: [target]), entries: [.init(target: target)])
    _ = empty.captureEnded(1, recordedOnly, changeCount: 0)
    _ = empty.recorded(item: id(0), changeCount: 1)
    #expect(
      empty.ownerGone() == [.takeOver(ifChangeCountIs: 1)],
      "a capture item goes to the binding, which keeps what is at hand of it or forgets it")
    empty.forgot()
    #expect(empty.mirror == nil)
    #expect(empty.ownerGone().isEmpty, "a forgotten copy is nothing to take over")
  }

  @Test func anEchoWithNothingCapturedIsNotTakenOver() {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerA)
    let target = OwnerOffer.Target(name: "UTF8_STRING", type: .utf8PlainText)
    let nothing = OfferCapture(
      offer: OwnerOffer(role: .clipboard, targets: [target]), entries: [.init(target: target)])
    #expect(policy.captureEnded(1, nothing, changeCount: 3, heldAs: id(1)).isEmpty)
    #expect(policy.ownerGone().isEmpty, "an item the pasteboard held already is left as it is")
  }

  @Test func anOwnerGoneDuringItsCaptureIsTakenOverOnceTheCaptureIsRecorded() {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerA)
    #expect(policy.ownerGone().isEmpty, "decided when the capture ends")
    #expect(policy.captureEnded(1, capture("a"), changeCount: 0) == [.record(id: 1)])
    #expect(policy.recorded(item: id(0), changeCount: 1) == [.takeOver(ifChangeCountIs: 1)])
  }

  @Test func aFailedCaptureOfAGoneOwnerFallsBackToTheCopyBefore() {
    var policy = mirroring()
    _ = policy.ownerChanged(ownerB)
    #expect(policy.ownerGone().isEmpty)
    #expect(policy.captureEnded(2, nil, changeCount: 1) == [.takeOver(ifChangeCountIs: 1)])
  }

  @Test func aNewOwnerAfterTheOldWentCancelsTheWaitingTakeover() {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerA)
    _ = policy.ownerGone()
    _ = policy.ownerChanged(ownerB)
    _ = policy.captureEnded(2, capture("b"), changeCount: 0)
    #expect(
      policy.recorded(item: id(0), changeCount: 1).isEmpty, "B is alive: its copy is not taken over"
    )
  }

  @Test func aRestoredItemIsNotServedAgain() {
    var policy = MirrorPolicy()
    policy.restored(item: id(3))
    #expect(policy.pasteboardChanged(top: id(3)).isEmpty)
    #expect(policy.pasteboardChanged(top: id(1)) == [.serve(id(1))])
  }

  @Test func savingTheMirroredOwnersCopyReplacesItInPlace() {
    let policy = mirroring()
    #expect(policy.saveReplacesMirror(owner: OwnerToken(owner: 0xA, generation: 0), changeCount: 1))
    #expect(
      !policy.saveReplacesMirror(owner: ownerB, changeCount: 1), "another owner's copy is a change")
    #expect(
      !policy.saveReplacesMirror(owner: ownerA, changeCount: 2), "so is one after a client's write")
    #expect(!MirrorPolicy().saveReplacesMirror(owner: ownerA, changeCount: 0))
  }

  @Test func aCopyThePasteboardAlreadyHoldsBecomesTheMirrorWithoutAChange() {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerB)
    #expect(policy.captureEnded(1, capture("bridged"), changeCount: 5, heldAs: id(2)).isEmpty)
    #expect(policy.mirror?.item == id(2))
    #expect(policy.mirror?.changeCount == 5)
    #expect(
      policy.ownerGone() == [.takeOver(ifChangeCountIs: 5)], "and is served when the bridge goes")
  }

  @Test func anEmptySelectionsOwnerGoneLeavesItAlone() {
    var policy = mirroring("a copy before")
    _ = policy.ownerChanged(ownerB)
    let empty = OfferCapture(offer: OwnerOffer(role: .clipboard, targets: []), entries: [])
    #expect(policy.captureEnded(2, empty, changeCount: 1) == [.record(id: 2)])
    _ = policy.recorded(item: id(1), changeCount: 2)
    #expect(
      policy.ownerGone() == [.takeOver(ifChangeCountIs: 2)],
      "the empty selection's item goes to the binding, which has nothing at hand to keep")
    policy.forgot()
    #expect(policy.ownerGone().isEmpty, "nor is the copy before it re-offered")
  }

  /// HTML and `text`, as a rich copy captured whole.
  private func richCapture(_ text: String) -> OfferCapture {
    let html = OwnerOffer.Target(name: "text/html", type: .html)
    let plain = OwnerOffer.Target(name: "UTF8_STRING", type: .utf8PlainText)
    return OfferCapture(
      offer: OwnerOffer(role: .clipboard, targets: [html, plain]),
      entries: [
        .init(target: html, data: Data("<b>\(text)</b>".utf8)),
        .init(target: plain, data: Data(text.utf8)),
      ])
  }

  @Test func aDesktopKeepersPartOfTheMirrorIsReplacedByItWithoutAChange() {
    var policy = MirrorPolicy()
    _ = policy.ownerChanged(ownerA)
    _ = policy.captureEnded(1, richCapture("whole"), changeCount: 0)
    _ = policy.recorded(item: id(0), changeCount: 1)
    _ = policy.ownerChanged(ownerB)
    let actions = policy.captureEnded(
      2, capture("whole"), changeCount: 1, heldAs: id(0), partOfHeld: true)
    #expect(actions == [.replaceKeeper(ownerB, ifChangeCountIs: 1)])
    #expect(policy.mirror?.item == id(0), "the whole copy stays the mirror")
    #expect(policy.mirror?.capture.entries.count == 2, "the mirror keeps the whole capture")
    #expect(policy.mirror?.owner == ownerB, "the keeper is what the policy replaces")
  }

  @Test func aKeepersPartAfterAClientsWriteIsNotTheMirrorsToReplace() {
    var policy = mirroring("whole")
    _ = policy.ownerChanged(ownerB)
    // The pasteboard moved on (change 2) since the mirror was written at 1.
    let actions = policy.captureEnded(
      2, capture("whole"), changeCount: 2, heldAs: id(1), partOfHeld: true)
    #expect(!actions.contains(.replaceKeeper(ownerB, ifChangeCountIs: 2)))
    #expect(policy.mirror?.item == id(1))
  }
}
