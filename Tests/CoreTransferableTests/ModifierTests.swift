import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

extension UTType {
  static let draft = UTType(exportedAs: "com.example.transfer-tests.draft")
  static let teamDraft = UTType(exportedAs: "com.example.transfer-tests.team-draft")
  static let groupDraft = UTType(exportedAs: "com.example.transfer-tests.group-draft")
}

/// One representation per visibility, and a proxy with one of its own.
struct Draft: Codable, Transferable {
  var title: String

  static var transferRepresentation: some TransferRepresentation {
    CodableRepresentation(contentType: .draft).visibility(.ownProcess)
    CodableRepresentation(contentType: .teamDraft).visibility(.team)
    CodableRepresentation(contentType: .groupDraft).visibility(.group)
    ProxyRepresentation(exporting: \.title)
  }
}

/// An inner visibility wins over an outer one; a proxy's representations take the outer one.
struct Secret: Transferable {
  var code: String

  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation(exporting: \.code).visibility(.ownProcess)
    DataRepresentation(exportedContentType: .data) { Data($0.code.utf8) }
      .visibility(.all)
      .visibility(.ownProcess)
  }
}

/// File names: fixed, computed per value, and an inner one that wins.
struct Memo: Transferable {
  var title: String
  var body: String

  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(exportedContentType: .utf8PlainText) { Data($0.body.utf8) }
      .suggestedFileName { memo in memo.title.isEmpty ? nil : memo.title }
    DataRepresentation(exportedContentType: .html) { Data("<p>\($0.body)</p>".utf8) }
      .suggestedFileName("Inner.html")
      .suggestedFileName("Outer")
    DataRepresentation(exportedContentType: .json) { _ in Data("{}".utf8) }
      .suggestedFileName("memo")
  }
}

/// Several conditions stack, and each is evaluated on the value.
struct Measurement: Transferable {
  var value: Double

  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(exportedContentType: .json) { Data("\($0.value)".utf8) }
      .exportingCondition { $0.value.isFinite }
      .exportingCondition { $0.value >= 0 }
    ProxyRepresentation(exporting: { (m: Measurement) in "\(m.value)" })
  }
}

@Suite("Modifiers")
struct ModifierTests {
  @Test func visibilityFiltersByAudience() {
    #expect(Draft.exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(Draft.exportedContentTypes(visibility: .all) == [.utf8PlainText, .plainText])
    #expect(
      Draft.exportedContentTypes(visibility: .team) == [.teamDraft, .utf8PlainText, .plainText])
    #expect(
      Draft.exportedContentTypes(visibility: .group) == [.groupDraft, .utf8PlainText, .plainText])
    #expect(
      Draft.exportedContentTypes(visibility: .ownProcess)
        == [.draft, .teamDraft, .groupDraft, .utf8PlainText, .plainText])
    let draft = Draft(title: "Plan")
    #expect(draft.exportedContentTypes(.team) == [.teamDraft, .utf8PlainText, .plainText])
    #expect(draft.transferExports(visibleTo: .all).map(\.visibility) == [.all, .all])
    #expect(draft.transferExports().map(\.visibility) == [.ownProcess, .team, .group, .all, .all])
    // Imports are not filtered.
    #expect(Draft.importedContentTypes() == [.draft, .teamDraft, .groupDraft])
  }

  @Test func visibilityAppliesToProxiedRepresentationsAndInnerWins() {
    #expect(Secret.exportedContentTypes(visibility: .all) == [.data])
    #expect(
      Secret.exportedContentTypes(visibility: .ownProcess) == [.utf8PlainText, .plainText, .data])
    #expect(Secret(code: "1234").transferExport(accepting: [.text], visibleTo: .all) == nil)
  }

  @Test func visibilityValues() {
    #expect(TransferRepresentationVisibility.all != .ownProcess)
    #expect(TransferRepresentationVisibility.team.isVisible(to: .ownProcess))
    #expect(!TransferRepresentationVisibility.team.isVisible(to: .group))
    #expect(!TransferRepresentationVisibility.ownProcess.isVisible(to: .all))
    #expect("\(TransferRepresentationVisibility.group)" == "group")
  }

  @Test func suggestedFileNames() async throws {
    let memo = Memo(title: "Groceries", body: "milk")
    #expect(memo.suggestedFilename == "Groceries")
    #expect(memo.transferExports().map(\.suggestedFileName) == ["Groceries", "Inner.html", "memo"])
    #expect(Memo(title: "", body: "milk").suggestedFilename == "Inner.html")

    let scratch = try Scratch()
    defer { scratch.remove() }
    #expect(
      try await memo.export(to: scratch.url, contentType: .plainText).lastPathComponent
        == "Groceries.txt")
    #expect(
      try await memo.export(to: scratch.url, contentType: .html).lastPathComponent == "Inner.html")
    #expect(
      try await memo.export(to: scratch.url, contentType: .json).lastPathComponent == "memo.json")
    let untitled = try await Memo(title: "", body: "x").export(
      to: scratch.url, contentType: .plainText)
    #expect(untitled.lastPathComponent == "Memo.txt")
  }

  @Test func exportingConditionsStackAndAreEvaluatedPerValue() async throws {
    #expect(Measurement.exportedContentTypes() == [.json, .utf8PlainText, .plainText])
    #expect(Measurement(value: 2).exportedContentTypes() == [.json, .utf8PlainText, .plainText])
    #expect(Measurement(value: -2).exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(Measurement(value: .infinity).exportedContentTypes() == [.utf8PlainText, .plainText])
    // A receiver of text in general falls through to the proxy for a negative value.
    #expect(Measurement(value: 2).transferExport(accepting: [.text])?.contentType == .json)
    #expect(
      Measurement(value: -2).transferExport(accepting: [.text])?.contentType == .utf8PlainText)
    #expect(text(try await Measurement(value: -2).exported(as: .text)) == "-2.0")
  }
}
