import Foundation
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

/// What an owner's `TARGETS` list becomes on X11: data targets in order, one per type.
@Suite struct OwnerOfferX11Tests {
  @Test func metaTargetsAndRepeatedTypesAreLeftOut() {
    let offer = OwnerOffer(
      selection: .clipboard,
      advertised: [
        "TARGETS", "MULTIPLE", "text/html", "UTF8_STRING", "text/plain;charset=utf-8", "STRING",
        "TIMESTAMP", "SAVE_TARGETS",
      ])
    #expect(offer.targets.map(\.name) == ["text/html", "UTF8_STRING", "STRING"])
    #expect(offer.targets.first?.type == .html)
    #expect(offer.offersMultiple)
    #expect(
      offer.essentialTargets.map(\.name) == ["text/html", "UTF8_STRING"],
      "STRING is a conversion of the UTF-8 text")
  }

  @Test(arguments: [
    (["TIMESTAMP", "TARGETS", "MULTIPLE", "UTF8_STRING", "text/html"], true),  // GTK 3
    (["UTF8_STRING", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS"], true),  // Qt 5
    (["TIMESTAMP", "MULTIPLE", "TARGETS", "DELETE", "INCR", "TEXT", "STRING"], false),  // xsel 1.2.0 dies of it
    (["TARGETS", "UTF8_STRING"], false),  // xclip
  ])
  func multipleIsAskedOfOwnersThatListItExceptXsel(advertised: [String], converts: Bool) {
    #expect(
      OwnerOffer(selection: .clipboard, advertised: advertised).convertsMultiple == converts)
  }

  /// Cut at the cap, but for the well-known text targets listed after it.
  @Test func aHostileListIsCutButItsTextKept() {
    let advertised = (0..<100_000).map { "BOGUS_\($0)" } + ["UTF8_STRING", "BOGUS_TAIL"]
    let offer = OwnerOffer(selection: .clipboard, advertised: advertised)
    #expect(offer.advertised.count == OwnerOffer.maximumTargets + 1)
    #expect(offer.advertised.last == "UTF8_STRING")
    #expect(offer.targets.count <= OwnerOffer.maximumTargets + 1)
    #expect(offer.essentialTargets.contains { $0.name == "UTF8_STRING" })
  }

  @Test func thePasswordManagerHintConcealsAndIsNoTarget() {
    let offer = OwnerOffer(
      selection: .clipboard, advertised: ["UTF8_STRING", "x-kde-passwordManagerHint"])
    #expect(offer.isConcealed)
    #expect(offer.targets.map(\.name) == ["UTF8_STRING"])
    let capture = OfferCapture(
      offer: offer, entries: [.init(target: offer.targets[0], data: Data("pw".utf8))])
    #expect(capture.item.options.contains(.concealed))
  }

  @Test func namedTargetsFollowTheOwnersOrderThenTheGivenOne() {
    let offer = OwnerOffer(selection: .clipboard, advertised: ["image/png", "UTF8_STRING"])
    #expect(
      offer.targets(named: ["UTF8_STRING", "text/html", "image/png", "TARGETS"]).map(\.name) == [
        "image/png", "UTF8_STRING", "text/html",
      ])
  }

  /// A selection no role names keeps its atom's name; a role's selection needs none.
  @Test func aSelectionBeyondTheRolesKeepsItsName() {
    let custom = OwnerOffer(selection: "FERRY_TEST_OFFER", advertised: ["UTF8_STRING"])
    #expect(custom.selectionName == "FERRY_TEST_OFFER")
    #expect(custom.selection == "FERRY_TEST_OFFER")
    let primary = OwnerOffer(selection: .primary, advertised: ["UTF8_STRING"])
    #expect(primary.role == .primary && primary.selectionName == nil)
    #expect(primary.selection == .primary)
    let drag = OwnerOffer(selection: .xdnd, advertised: ["text/uri-list"])
    #expect(drag.role == .drag && drag.selection == .xdnd)
  }

  /// The owner's window and time go through the seam's token and back unchanged.
  @Test func theOwnershipSurvivesTheToken() {
    let ownership = SelectionOwnership(
      window: XWindow(rawValue: 0x1c0_0007), since: XTimestamp(rawValue: 0xFFFF_FFF0))
    let offer = OwnerOffer(selection: .clipboard, advertised: ["UTF8_STRING"], owner: ownership)
    #expect(offer.owner == OwnerToken(owner: 0x1c0_0007, generation: 0xFFFF_FFF0))
    #expect(offer.ownership == ownership)
    #expect(OwnerOffer(selection: .clipboard, advertised: []).ownership == nil)
  }
}
