import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// Localization is tested through `MIMEComments`, never by changing the process's locale:
/// tests run in parallel and share the environment.
@Suite("Localized descriptions")
struct LocalizationTests {
  static let document = """
    <?xml version="1.0" encoding="utf-8"?>
    <mime-type xmlns="http://www.freedesktop.org/standards/shared-mime-info" type="application/x-ferrytests">
      <!--Created automatically by update-mime-database. DO NOT EDIT!-->
      <comment>Ferry &amp; friends document</comment>
      <comment xml:lang="de">Ferry-&amp;-Freunde-Dokument</comment>
      <comment xml:lang="de_AT">Ferry-Dokument (Österreich)</comment>
      <comment xml:lang="fr">document Ferry &lt;et amis&gt;</comment>
      <acronym>FTD</acronym>
      <glob pattern="*.ftd"/>
    </mime-type>
    """

  @Test(arguments: [
    ([], "Ferry & friends document"),
    (["de_AT", "de"], "Ferry-Dokument (Österreich)"),
    (["de_CH", "de"], "Ferry-&-Freunde-Dokument"),
    (["fr_FR", "fr"], "document Ferry <et amis>"),
    (["ja_JP", "ja"], "Ferry & friends document"),
  ])
  func parsePicksTheBestLanguage(_ languages: [String], _ expected: String) {
    let comment = MIMEComments.parse(Self.document, languages: languages)
    #expect(comment.english == "Ferry & friends document")
    #expect(comment.localized == expected)
  }

  @Test func parseWithoutComments() {
    let comment = MIMEComments.parse("<mime-type type=\"a/b\"></mime-type>", languages: ["de"])
    #expect(comment.english == nil)
    #expect(comment.localized == nil)
  }

  @Test func commentsAreReadFromTheFirstDirectoryThatHasThem() throws {
    try withTemporaryDirectory { directory in
      try write(Self.document, to: "first/application/x-ferrytests.xml", in: directory)
      try write(
        Self.document.replacingOccurrences(of: "Ferry &amp; friends", with: "Shadowed"),
        to: "second/application/x-ferrytests.xml", in: directory)
      try write(
        "<mime-type><comment>Only second</comment></mime-type>",
        to: "second/application/x-ferrytests-other.xml", in: directory)
      let comments = MIMEComments(
        directories: [directory + "/first", directory + "/second"], languages: ["de"])
      #expect(
        comments.comment(for: "application/x-ferrytests").english == "Ferry & friends document")
      #expect(
        comments.comment(for: "application/x-ferrytests").localized == "Ferry-&-Freunde-Dokument")
      #expect(comments.comment(for: "application/x-ferrytests-other").localized == "Only second")
      #expect(comments.comment(for: "application/x-ferrytests-none").english == nil)
    }
  }

  @Test(.enabled(if: systemMIMEDirectory != nil, "no shared-mime-info database in /usr/share/mime"))
  func systemDatabaseTranslatesPNG() throws {
    let directory = try #require(systemMIMEDirectory)
    let xml = try String(contentsOfFile: directory + "/image/png.xml", encoding: .utf8)
    let english = MIMEComments(directories: [directory], languages: []).comment(for: "image/png")
    #expect(english.english == "PNG image", "Apple's description of public.png")
    #expect(english.localized == english.english)
    for language in ["de", "fr", "es"] where xml.contains("xml:lang=\"\(language)\"") {
      let comment = MIMEComments(directories: [directory], languages: [language]).comment(
        for: "image/png")
      let localized = try #require(comment.localized)
      #expect(localized != comment.english, "\(language)")
      #expect(xml.contains("<comment xml:lang=\"\(language)\">\(localized)</comment>"))
    }
  }

  @Test func messageLanguagesFollowTheLocale() {
    let environment = ProcessInfo.processInfo.environment
    let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
      .compactMap { $0 }.first { !$0.isEmpty }
    let name = locale?.split(separator: ".").first?.split(separator: "@").first.map(String.init)
    if let name, name != "C", name != "POSIX" {
      #expect(Environment.messageLanguages.first == name)
      if let language = name.split(separator: "_").first, name.contains("_") {
        #expect(Environment.messageLanguages.dropFirst().first == String(language))
      }
    } else {
      #expect(Environment.messageLanguages.isEmpty)
    }
  }
}
