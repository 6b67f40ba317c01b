import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

@Suite("Standard conformances")
struct StandardConformanceTests {
  @Test func stringIsUTF8PlainTextThenPlainText() async throws {
    #expect(String.exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(String.importedContentTypes() == [.utf8PlainText, .plainText])
    #expect(try await "héllo".exported(as: .utf8PlainText) == Data("héllo".utf8))
    #expect(try await "héllo".exported(as: .plainText) == Data("héllo".utf8))
    #expect(try await String(importing: Data("héllo".utf8), contentType: .utf8PlainText) == "héllo")
  }

  @Test func stringImportFollowsByteOrderMarks() async throws {
    let utf16LE = Data([0xFF, 0xFE]) + "hé".data(using: .utf16LittleEndian)!
    let utf16BE = Data([0xFE, 0xFF]) + "hé".data(using: .utf16BigEndian)!
    let utf8BOM = Data([0xEF, 0xBB, 0xBF]) + Data("hé".utf8)
    #expect(try await String(importing: utf16LE, contentType: .plainText) == "hé")
    #expect(try await String(importing: utf16BE, contentType: .plainText) == "hé")
    #expect(try await String(importing: utf8BOM, contentType: .utf8PlainText) == "hé")
    // Any plain-text subtype goes through the plain-text importer.
    #expect(
      try await String(importing: Data("a,b".utf8), contentType: .commaSeparatedText) == "a,b")
  }

  @Test func stringRejectsBytesThatAreNotText() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await String(importing: Data([0x66, 0xFF, 0x6F]), contentType: .utf8PlainText)
    }
    #expect(error?.code == .importFailed)
    #expect(
      error?.description
        == "cannot import String from public.utf8-plain-text: the representation's importer failed: the data is not valid UTF-8 text"
    )
  }

  @Test func dataIsPublicData() async throws {
    let bytes = Data([0, 1, 2, 255])
    #expect(Data.exportedContentTypes() == [.data])
    #expect(try await bytes.exported(as: .data) == bytes)
    #expect(try await Data(importing: bytes, contentType: .png) == bytes)
    #expect(try await "text".transferred(as: Data.self) == Data("text".utf8))
  }

  @Test func webURLIsPublicURL() async throws {
    let url = URL(string: "https://swift.org/documentation")!
    #expect(url.exportedContentTypes() == [.url])
    #expect(text(try await url.exported(as: .url)) == "https://swift.org/documentation")
    #expect(
      try await URL(importing: Data(" https://swift.org/documentation\n".utf8), contentType: .url)
        == url)
  }

  @Test func fileURLIsAlsoPublicFileURL() async throws {
    let url = URL(fileURLWithPath: "/tmp/report final.pdf")
    #expect(URL.exportedContentTypes() == [.fileURL, .url])
    #expect(URL.importedContentTypes() == [.fileURL, .url])
    #expect(url.exportedContentTypes() == [.fileURL, .url])
    #expect(text(try await url.exported(as: .fileURL)) == "file:///tmp/report%20final.pdf")
    #expect(
      try await URL(importing: Data("file:///tmp/report%20final.pdf".utf8), contentType: .fileURL)
        == url)
  }

  @Test func urlImportRejectsWhatIsNotAURL() async throws {
    let notAbsolute = await #expect(throws: TransferError.self) {
      try await URL(importing: Data("just words".utf8), contentType: .url)
    }
    #expect(notAbsolute?.code == .importFailed)
    #expect(notAbsolute.map { "\($0)" }?.contains("is not an absolute URL") == true)

    let notFile = await #expect(throws: TransferError.self) {
      try await URL(importing: Data("https://swift.org".utf8), contentType: .fileURL)
    }
    #expect(notFile.map { "\($0)" }?.contains("is not a file URL") == true)
  }

  @Test func attributedStringTransfersItsCharacters() async throws {
    var greeting = AttributedString("Hello, ")
    greeting += AttributedString("world")
    #expect(AttributedString.exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(text(try await greeting.exported(as: .plainText)) == "Hello, world")
    let imported = try await AttributedString(
      importing: Data("Hi".utf8), contentType: .utf8PlainText)
    #expect(String(imported.characters) == "Hi")
    #expect(try await greeting.transferred(as: String.self) == "Hello, world")
  }
}
