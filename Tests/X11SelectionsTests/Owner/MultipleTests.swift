import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing
import X11Selections

/// MULTIPLE on the owner side (ICCCM §2.6.2): each pair converted on its own, failed pairs
/// written back as None, one SelectionNotify for the whole batch. Checked with our probe.
@Suite(.skipsWithoutPeers) struct MultipleTests {
  @Test func eachPairSucceedsOrFailsOnItsOwn() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("multiple")
    try await display.own(selection, item: textItem("héllo"))
    let reply = try await SelectionProbe.multiple(
      selection, ["UTF8_STRING", "image/png", "STRING"], display: xvfb.name)
    #expect(reply.status == 0, "\(reply)")
    #expect(
      reply.pairs == [
        .init(target: "UTF8_STRING", type: "UTF8_STRING", hex: utf8Hex("héllo")),
        .init(target: "image/png", type: nil, hex: nil),
        .init(target: "STRING", type: "STRING", hex: "68e96c6c6f"),
      ], "\(reply)")
  }

  /// STRING of text Latin-1 cannot hold is escaped as GTK does (issue 19), in MULTIPLE too.
  @Test func aStringPairOfNonLatin1TextIsServedEscaped() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("multiple")
    try await display.own(selection, item: textItem("5 €"))
    let reply = try await SelectionProbe.multiple(
      selection, ["STRING", "text/plain;charset=utf-8"], display: xvfb.name)
    #expect(
      reply.pairs == [
        .init(target: "STRING", type: "STRING", hex: "35205c7532306163"),  // 5 \u20ac
        .init(
          target: "text/plain;charset=utf-8", type: "text/plain;charset=utf-8", hex: utf8Hex("5 €")),
      ], "\(reply)")
  }

  @Test func aMultipleRequestWithoutAPairListIsRefused() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("multiple")
    try await display.own(selection, item: textItem("x"))
    // A plain `get MULTIPLE` names a property that holds no ATOM_PAIR list.
    let reply = try await SelectionProbe.get(selection, "MULTIPLE", display: xvfb.name)
    #expect(reply.isRefused, "\(reply)")
  }
}
