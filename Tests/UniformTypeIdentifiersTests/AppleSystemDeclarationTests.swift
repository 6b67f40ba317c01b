import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// Apple's system declarations beyond the named constants (Office, OpenDocument, fonts, m4a,
/// ics, XHTML, Markdown): tags and identifiers answer as macOS answers them.
@Suite("Apple's system declarations without a constant")
struct AppleSystemDeclarationTests {
  /// A tag, its class, and the identifier macOS gives it.
  struct Expectation: Sendable, CustomTestStringConvertible {
    var tag: String
    var tagClass: UTTagClass
    var identifier: String
    var testDescription: String { "\(tag) → \(identifier)" }

    static func ext(_ tag: String, _ identifier: String) -> Expectation {
      Expectation(tag: tag, tagClass: .filenameExtension, identifier: identifier)
    }
    static func mime(_ tag: String, _ identifier: String) -> Expectation {
      Expectation(tag: tag, tagClass: .mimeType, identifier: identifier)
    }
  }

  static let docx = "org.openxmlformats.wordprocessingml.document"
  static let xlsx = "org.openxmlformats.spreadsheetml.sheet"
  static let pptx = "org.openxmlformats.presentationml.presentation"

  static let expectations: [Expectation] = [
    .ext("md", "net.daringfireball.markdown"),
    .ext("markdown", "net.daringfireball.markdown"),
    .ext("docx", docx), .ext("xlsx", xlsx), .ext("pptx", pptx),
    .ext("doc", "com.microsoft.word.doc"), .ext("xls", "com.microsoft.excel.xls"),
    .ext("ppt", "com.microsoft.powerpoint.ppt"),
    .ext("odt", "org.oasis-open.opendocument.text"),
    .ext("ods", "org.oasis-open.opendocument.spreadsheet"),
    .ext("odp", "org.oasis-open.opendocument.presentation"),
    .ext("ttf", "public.truetype-ttf-font"), .ext("otf", "public.opentype-font"),
    .ext("m4a", "com.apple.m4a-audio"), .ext("ics", "com.apple.ical.ics"),
    .ext("xhtml", "public.xhtml"),
    .mime("text/markdown", "net.daringfireball.markdown"),
    .mime("application/vnd.openxmlformats-officedocument.wordprocessingml.document", docx),
    .mime("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", xlsx),
    .mime("application/vnd.openxmlformats-officedocument.presentationml.presentation", pptx),
    .mime("application/msword", "com.microsoft.word.doc"),
    .mime("application/vnd.ms-excel", "com.microsoft.excel.xls"),
    .mime("application/vnd.ms-powerpoint", "com.microsoft.powerpoint.ppt"),
    .mime("application/vnd.oasis.opendocument.text", "org.oasis-open.opendocument.text"),
    .mime("font/ttf", "public.truetype-ttf-font"), .mime("font/otf", "public.opentype-font"),
    .mime("audio/x-m4a", "com.apple.m4a-audio"), .mime("text/calendar", "com.apple.ical.ics"),
    .mime("application/xhtml+xml", "public.xhtml"),
  ]

  @Test(arguments: expectations)
  func tagGivesMacOSIdentifier(_ expected: Expectation) throws {
    let type = try #require(
      UTType(tag: expected.tag, tagClass: expected.tagClass, conformingTo: nil))
    #expect(type.identifier == expected.identifier)
    #expect(type.isDeclared && !type.isDynamic)
    // The default supertype of the convenience initializers, public.data, admits each of them.
    #expect(UTType(tag: expected.tag, tagClass: expected.tagClass, conformingTo: .data) == type)
    #expect(UTType(expected.identifier) == type)
  }

  @Test(arguments: expectations)
  func systemTableAnswersWithoutTheMIMEDatabase(_ expected: Expectation) {
    let registry = privateRegistry()
    #expect(registry.preferredIdentifier(expected.tag, expected.tagClass) == expected.identifier)
    #expect(!registry.isMIMEDatabaseLoaded)
  }

  @Test func officeOpenXMLConformsAsMacOSDeclaresIt() throws {
    let docx = try #require(UTType(filenameExtension: "docx"))
    let openXML = try #require(UTType("org.openxmlformats.openxml"))
    #expect(docx.conforms(to: openXML))
    #expect(docx.conforms(to: .compositeContent) && docx.conforms(to: .content))
    #expect(docx.conforms(to: .data) && docx.conforms(to: .item))
    // macOS 13's declaration of org.openxmlformats.openxml names public.data alone.
    #expect(!docx.conforms(to: .zip) && !docx.conforms(to: .archive))
    #expect(docx._parents.map(\.identifier) == [openXML.identifier, "public.composite-content"])
    #expect(try #require(UTType(filenameExtension: "xlsx")).conforms(to: .spreadsheet))
    #expect(try #require(UTType(filenameExtension: "pptx")).conforms(to: .presentation))
    #expect(try #require(UTType(filenameExtension: "xls")).conforms(to: .spreadsheet))
    #expect(try #require(UTType(filenameExtension: "ppt")).conforms(to: .presentation))
    let odt = try #require(UTType(filenameExtension: "odt"))
    #expect(odt.conforms(to: try #require(UTType("org.oasis-open.opendocument"))))
    #expect(!odt.conforms(to: openXML))
  }

  @Test func mediaFontsAndCalendarsConform() throws {
    let m4a = try #require(UTType(filenameExtension: "m4a"))
    #expect(m4a.conforms(to: .mpeg4Audio) && m4a.conforms(to: .audio))
    #expect(!m4a.conforms(to: .mpeg4Movie))
    let ttf = try #require(UTType(filenameExtension: "ttf"))
    #expect(ttf.conforms(to: try #require(UTType("public.truetype-font"))))
    #expect(ttf.conforms(to: .font) && ttf.conforms(to: .data))
    #expect(try #require(UTType(filenameExtension: "otf")).conforms(to: .font))
    let ics = try #require(UTType(filenameExtension: "ics"))
    #expect(ics.conforms(to: .calendarEvent) && ics.conforms(to: .text))
    #expect(!ics.conforms(to: .plainText))
    #expect(try #require(UTType(filenameExtension: "xhtml")).conforms(to: .xml))
    // mp4 keeps its movie type; m4a no longer falls back to public.mpeg-4-audio.
    #expect(UTType(filenameExtension: "mp4") == .mpeg4Movie)
    #expect(UTType(filenameExtension: "m4a") != .mpeg4Audio)
  }

  @Test func markdownConstant() throws {
    let markdown = UTType.markdown
    #expect(markdown.identifier == "net.daringfireball.markdown")
    #expect(markdown.isDeclared && markdown.isPublic == false)
    #expect(markdown.conforms(to: .utf8PlainText) && markdown.conforms(to: .plainText))
    #expect(markdown.conforms(to: .text) && markdown.conforms(to: .data))
    #expect(!markdown.conforms(to: .html))
    #expect(markdown.preferredFilenameExtension == "md")
    #expect(markdown.preferredMIMEType == "text/markdown")
    #expect(UTType(filenameExtension: "md") == markdown)
    #expect(UTType(filenameExtension: "MD", conformingTo: .plainText) == markdown)
    #expect(UTType(mimeType: "text/markdown") == markdown)
    #expect(UTType.plainText.isSupertype(of: markdown))
  }

  /// shared-mime-info's text/markdown, its alias and its globs belong to Apple's type: the
  /// system layer carries the MIME type, so the database declares nothing of its own for it.
  @Test func mimeDatabaseMarkdownFoldsIntoAppleType() throws {
    try withTemporaryDirectory { directory in
      let mime = directory + "/mime"
      _ = try write("text/plain\ntext/markdown\n", to: "types", in: mime)
      _ = try write("text/x-markdown text/markdown\n", to: "aliases", in: mime)
      _ = try write("text/markdown text/plain\n", to: "subclasses", in: mime)
      _ = try write(
        "50:text/markdown:*.md\n50:text/markdown:*.mkd\n50:text/markdown:*.markdown\n",
        to: "globs2", in: mime)
      let registry = privateRegistry(mimeDirectories: [mime])
      let markdown = "net.daringfireball.markdown"
      #expect(registry.preferredIdentifier("text/x-markdown", .mimeType) == markdown)
      #expect(registry.isMIMEDatabaseLoaded)
      #expect(registry.preferredIdentifier("mkd", .filenameExtension) == markdown)
      #expect(registry.preferredIdentifier("md", .filenameExtension) == markdown)
      #expect(registry.record("org.freedesktop.mime.text.markdown") == nil)
      let tags = registry.tags(ofKey: markdown, includingMIMEDatabase: true)
      #expect(tags[.filenameExtension]?.prefix(2) == ["md", "markdown"])
      #expect(tags[.filenameExtension]?.contains("mkd") == true)
      #expect(tags[.mimeType] == ["text/markdown", "text/x-markdown"])
    }
  }
}
