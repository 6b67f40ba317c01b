import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

/// What Ferry's owner advertises and answers, read by our own Xlib probe (xselprobe.c), on
/// selections of each test's own so they run in parallel.
@Suite(.skipsWithoutPeers) struct OwnerTargetsTests {
  static let profile = UTType(exportedAs: "org.ferrytests.profile", conformingTo: .json)

  static func profileItem() -> PasteboardItem {
    PasteboardItem(representations: [
      .data(Data(#"{"name":"Juan Chavez"}"#.utf8), type: profile),
      .data(Data("Juan Chavez".utf8), type: .utf8PlainText),
    ])
  }

  @Test func targetsListTheItemsTypesInOrderThenTheMetaTargets() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("targets")
    try await display.own(selection, item: Self.profileItem())

    let reply = try await SelectionProbe.get(selection, "TARGETS", display: xvfb.name)
    #expect(reply.type == "ATOM" && reply.format == 32, "\(reply)")
    let atoms = reply.atoms
    #expect(atoms.first == "org.ferrytests.profile", "the richest type first: \(atoms)")
    #expect(atoms.dropFirst().first == "UTF8_STRING", "then the text: \(atoms)")
    #expect(
      Array(atoms.suffix(4)) == ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"], "\(atoms)")
    #expect(Set(atoms).count == atoms.count, "no duplicates: \(atoms)")
    #expect(
      !atoms.contains("None") && !atoms.contains("?"), "no invalid atoms (Java AWT fails on them)")
    for text in ["text/plain;charset=utf-8", "STRING", "TEXT", "COMPOUND_TEXT"] {
      #expect(atoms.contains(text), "\(text) in \(atoms)")
    }
    // Ferry's own reader sees the same list, in the same order.
    #expect(try await display.targets(of: selection) == atoms)
  }

  @Test func everyAdvertisedTargetIsServed() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("served")
    try await display.own(selection, item: Self.profileItem())
    let targets = try await SelectionProbe.get(selection, "TARGETS", display: xvfb.name).atoms
    #expect(targets.count > 4)
    for target in targets where target != "MULTIPLE" {
      let reply = try await SelectionProbe.get(selection, target, display: xvfb.name)
      #expect(!reply.isRefused && reply.type != nil, "advertised \(target) but: \(reply)")
    }
    let profile = try await SelectionProbe.get(
      selection, "org.ferrytests.profile", display: xvfb.name)
    #expect(profile.type == "org.ferrytests.profile")
    #expect(profile.hex == utf8Hex(#"{"name":"Juan Chavez"}"#))
  }

  @Test func timestampIsTheOwnershipTime() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("timestamp")
    let time = try await display.own(selection, item: textItem("t"))
    #expect(time != .current, "ownership uses a real server time, never CurrentTime")
    let reply = try await SelectionProbe.get(selection, "TIMESTAMP", display: xvfb.name)
    #expect(reply.type == "INTEGER" && reply.format == 32, "\(reply)")
    #expect(reply.values == [Int(time.rawValue)])
  }

  @Test(arguments: ["image/png", "text/html", "org.ferrytests.unknown", "INCR"])
  func unadvertisedTargetsAreRefusedWithPropertyNone(target: String) async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("refuse")
    try await display.own(selection, item: textItem("only text"))
    let reply = try await SelectionProbe.get(selection, target, display: xvfb.name)
    #expect(reply.isRefused, "\(reply)")
  }

  @Test func anObsoleteRequestorWithoutPropertyGetsTheTargetAsProperty() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("obsolete")
    try await display.own(selection, item: textItem("héllo"))
    let reply = try await SelectionProbe.get(
      selection, "UTF8_STRING", display: xvfb.name, obsolete: true)
    #expect(reply.type == "UTF8_STRING", "\(reply)")
    #expect(reply.hex == utf8Hex("héllo"))
  }

  @Test func aRequestOlderThanTheOwnershipIsRefusedAndCurrentTimeIsAccepted() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("stale")
    let time = try await display.own(selection, item: textItem("now"))
    // ICCCM §2.2: a request from before the owner took the selection refers to an earlier owner.
    let stale = try await SelectionProbe.get(
      selection, "UTF8_STRING", display: xvfb.name, time: time.rawValue - 1)
    #expect(stale.isRefused, "\(stale)")
    // xclip asks with CurrentTime; owners must accept it.
    let current = try await SelectionProbe.get(
      selection, "UTF8_STRING", display: xvfb.name, time: 0)
    #expect(current.hex == utf8Hex("now"), "\(current)")
    let exact = try await SelectionProbe.get(
      selection, "UTF8_STRING", display: xvfb.name, time: time.rawValue)
    #expect(exact.hex == utf8Hex("now"), "\(exact)")
  }

  @Test func aLazyRepresentationIsProducedOnRequest() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("lazy")
    let item = PasteboardItem(representations: [
      .lazy(.html) { .data(Data("<b>late</b>".utf8)) }
    ])
    try await display.own(selection, item: item)
    let reply = try await SelectionProbe.get(selection, "text/html", display: xvfb.name)
    #expect(reply.type == "text/html" && reply.hex == utf8Hex("<b>late</b>"), "\(reply)")
  }

  @Test func aDisownedSelectionHasNoOwnerAndReadsFail() async throws {
    let (_, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("disown")
    try await display.own(selection, item: textItem("x"))
    #expect(try await display.owns(selection))
    await display.disown(selection)
    #expect(try await !display.owns(selection))
    #expect(try await display.owner(of: selection) == .none)
    await #expect(throws: X11Error.noOwner(selection)) {
      try await display.read(selection, target: "UTF8_STRING")
    }
  }
}
