import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

/// A kept copy answers to each name its owner offered, as the owner spelled it: LibreOffice
/// offers `text/plain;charset=UTF-8`, which a reader may ask for by that exact atom.
@Suite struct OwnerSpellingTests {
  private static let libreOfficeTargets = [
    "TARGETS",
    "application/x-openoffice-embed-source-xml;windows_formatname=\"Star Embed Source (XML)\"",
    "text/rtf", "text/html", "text/plain;charset=utf-16", "text/plain;charset=UTF-8",
    "UTF8_STRING", "STRING", "text/plain;charset=utf-8",
  ]

  @Test func everyNameOfATypeIsKeptInTheOwnersOrder() {
    let offer = OwnerOffer(selection: .clipboard, advertised: Self.libreOfficeTargets)
    let spellings = offer.spellings[.utf8PlainText] ?? []
    #expect(
      spellings == ["text/plain;charset=UTF-8", "UTF8_STRING", "text/plain;charset=utf-8"],
      "\(offer.spellings)")
    #expect(offer.targets.filter { $0.type == .utf8PlainText }.count == 1, "one target a type")
  }

  @Test func aCaptureItemIsServedUnderTheOwnersSpelling() async throws {
    let offer = OwnerOffer(selection: .clipboard, advertised: Self.libreOfficeTargets)
    let target = try #require(offer.targets.first { $0.type == .utf8PlainText })
    let capture = OfferCapture(offer: offer, entries: [.init(target: target, data: Data("x".utf8))])
    let item = capture.item
    let table = await TargetTable.make(for: item)
    #expect(table.entry(named: "text/plain;charset=UTF-8")?.source == .type(.utf8PlainText))
    #expect(table.entry(named: "text/plain;charset=utf-8")?.source == .type(.utf8PlainText))
    let names = table.entries.map(\.name)
    #expect(Set(names).count == names.count, "each name once: \(names)")
    // Kept as far as it is at hand, the copy keeps its spellings.
    #expect(item.itemAtHand()?.ownerNames == item.ownerNames)
  }

  /// xclip -t 'text/plain;charset=UTF-8' offers that one name for the text.
  @Test func aSingleUnusualSpellingIsKept() async throws {
    let offer = OwnerOffer(
      selection: .clipboard, advertised: ["TARGETS", "text/plain;charset=UTF-8"])
    let target = try #require(offer.targets.first)
    let capture = OfferCapture(offer: offer, entries: [.init(target: target, data: Data("x".utf8))])
    let names = await TargetTable.make(for: capture.item).entries.map(\.name)
    #expect(names.contains("text/plain;charset=UTF-8"), "\(names)")
    #expect(names.contains("UTF8_STRING"), "\(names)")
  }

  @Test func anItemMadeHereHasOnlyItsOwnNames() async {
    let item = PasteboardItem(representations: [.data(Data("x".utf8), type: .utf8PlainText)])
    let names = await TargetTable.make(for: item).entries.map(\.name)
    #expect(!names.contains("text/plain;charset=UTF-8"))
  }
}
