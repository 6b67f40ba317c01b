import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

/// The X targets an item is offered under, computed without a server.
@Suite struct TargetTableTests {
  @Test func aProfileIsOfferedUnderItsIdentifierBeforeItsText() async {
    let table = await TargetTable.make(for: OwnerTargetsTests.profileItem())
    let names = table.entries.map(\.name)
    #expect(
      Array(names.prefix(6)) == [
        "org.ferrytests.profile", "UTF8_STRING", "text/plain;charset=utf-8", "TEXT",
        "COMPOUND_TEXT", "text/plain",
      ], "\(names)")
    #expect(names.contains("STRING"))
    #expect(Set(names).count == names.count)
  }

  /// GTK offers STRING and text/plain for any text and escapes what they cannot hold
  /// (issue 19): they are always offered, in GTK's lenient forms.
  @Test(arguments: ["ascii", "héllo ÿ", "Grüße — 日本語"])
  func stringAndPlainTextAreOfferedForAnyTextInGTKsForm(text: String) async {
    let table = await TargetTable.make(for: textItem(text))
    #expect(table.entry(named: "STRING")?.source == .escapedText(.latin1), "\(table.entries)")
    #expect(
      table.entry(named: "text/plain")?.source == .escapedText(.asciiCRLF), "\(table.entries)")
    #expect(table.entries.first?.name == "UTF8_STRING")
  }

  @Test func storedLatin1IsServedAsStored() async {
    let item = PasteboardItem(representations: [.data(Data([0x68, 0xE9]), type: .latin1PlainText)])
    let table = await TargetTable.make(for: item)
    #expect(table.entry(named: "STRING")?.source == .type(.latin1PlainText), "\(table.entries)")
    #expect(
      table.entry(named: "text/plain")?.source == .escapedText(.asciiCRLF), "\(table.entries)")
  }

  /// A public type with no X or MIME name is not offered under its identifier: X readers get
  /// its bytes under a sibling's names (UTF-16 under `text/plain;charset=utf-16`).
  @Test func publicTypesWithoutXOrMIMENamesAreNotOfferedUnderTheirIdentifier() async {
    let names = await TargetTable.make(for: textItem("x")).entries.map(\.name)
    #expect(!names.contains { $0.hasPrefix("public.") }, "\(names)")
    #expect(names.contains("text/plain;charset=utf-16"), "\(names)")
    #expect(TargetTable.targetNames(of: .utf16ExternalPlainText).isEmpty)
  }

  @Test func textIsAnsweredAsUTF8AndCompoundTextIsConverted() {
    let table = TargetTable(types: [.utf8PlainText])
    #expect(table.entry(named: "TEXT")?.replyType == "UTF8_STRING")
    #expect(table.entry(named: "COMPOUND_TEXT")?.source == .compoundText)
    #expect(table.entry(named: "UTF8_STRING")?.source == .type(.utf8PlainText))
    #expect(table.entry(named: "image/png") == nil)
  }

  @Test func aTypeWithoutTagsIsOfferedUnderItsIdentifierAndMIMETypesUnderTheirName() {
    #expect(TargetTable.targetNames(of: OwnerTargetsTests.profile) == ["org.ferrytests.profile"])
    #expect(TargetTable.targetNames(of: .png) == ["image/png"])
    #expect(TargetTable.targetNames(of: .html) == ["text/html"])
  }
}
