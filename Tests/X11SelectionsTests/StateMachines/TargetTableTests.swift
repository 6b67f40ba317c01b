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
    #expect(Array(names.prefix(6)) == [
      "org.ferrytests.profile", "UTF8_STRING", "text/plain;charset=utf-8", "TEXT", "COMPOUND_TEXT", "text/plain",
    ], "\(names)")
    #expect(names.contains("STRING"))
    #expect(Set(names).count == names.count)
  }

  @Test(arguments: [
    ("ascii", true, true),
    ("héllo ÿ", true, false),
    ("5 €", false, false),
  ])
  func latin1AndPlainTextAreOfferedOnlyWhenTheTextFits(text: String, latin1: Bool, ascii: Bool) async {
    let names = await TargetTable.make(for: textItem(text)).entries.map(\.name)
    #expect(names.contains("STRING") == latin1, "\(names)")
    #expect(names.contains("text/plain;charset=iso-8859-1") == latin1, "\(names)")
    #expect(names.contains("text/plain") == ascii, "\(names)")
    #expect(names.first == "UTF8_STRING")
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
