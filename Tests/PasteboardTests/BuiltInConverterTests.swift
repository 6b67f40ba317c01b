import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

@Suite struct BuiltInConverterTests {
  func item(_ text: String, _ type: UTType = .utf8PlainText) -> PasteboardItem {
    PasteboardItem(
      representations: [.data(Data(text.utf8), type: type)], converters: ConverterRegistry())
  }

  @Test func latin1TextConvertsBothWays() async throws {
    let latin1 = try await item("héllo wörld").data(for: .latin1PlainText)
    #expect(Array(latin1) == [0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x77, 0xF6, 0x72, 0x6C, 0x64])
    let back = PasteboardItem(
      representations: [.data(latin1, type: .latin1PlainText)], converters: ConverterRegistry())
    #expect(text(try await back.data(for: .utf8PlainText)) == "héllo wörld")
  }

  @Test(arguments: ["5 €", "日本語", "emoji 🙂"])
  func textLatin1CannotHoldIsRefusedNotMangled(_ input: String) async throws {
    do {
      let data = try await item(input).data(for: .latin1PlainText)
      Issue.record("expected a refusal, got \(Array(data))")
    } catch let error as PasteboardError {
      guard case .conversionFailed(let from, let to, _) = error else {
        Issue.record("wrong error \(error)")
        return
      }
      #expect(from == .utf8PlainText)
      #expect(to == .latin1PlainText)
      #expect(error.description.contains("Latin-1"))
    }
  }

  @Test func utf16RoundTripsWithAndWithoutByteOrderMark() async throws {
    let source = item("a€𝄞")
    let plain = try await source.data(for: .utf16PlainText)
    #expect(Array(plain.prefix(2)) == [0x61, 0x00])
    let external = try await source.data(for: .utf16ExternalPlainText)
    #expect(Array(external.prefix(2)) == [0xFF, 0xFE])
    for (data, type) in [(plain, UTType.utf16PlainText), (external, .utf16ExternalPlainText)] {
      let back = PasteboardItem(
        representations: [.data(data, type: type)], converters: ConverterRegistry())
      #expect(text(try await back.data(for: .utf8PlainText)) == "a€𝄞")
    }
    let bigEndian = PasteboardItem(
      representations: [.data(Data([0xFE, 0xFF, 0x00, 0x61]), type: .utf16ExternalPlainText)],
      converters: ConverterRegistry())
    #expect(text(try await bigEndian.data(for: .utf8PlainText)) == "a")
  }

  @Test func plainTextOfUnknownEncodingIsReadAsUTF8OrLatin1() async throws {
    let utf8 = PasteboardItem(
      representations: [.data(Data("é".utf8), type: .plainText)], converters: ConverterRegistry())
    #expect(text(try await utf8.data(for: .utf8PlainText)) == "é")
    let latin1 = PasteboardItem(
      representations: [.data(Data([0xE9]), type: .plainText)], converters: ConverterRegistry())
    #expect(text(try await latin1.data(for: .utf8PlainText)) == "é")
  }

  @Test func uriListBecomesGnomeListPathsAndFileURL() async throws {
    let list = item("# comment\r\nfile:///home/me/a%20b.txt\r\nfile:///etc/hostname\r\n", .uriList)
    #expect(
      text(try await list.data(for: .gnomeCopiedFiles))
        == "copy\nfile:///home/me/a%20b.txt\nfile:///etc/hostname")
    #expect(text(try await list.data(for: .utf8PlainText)) == "/home/me/a b.txt\n/etc/hostname")
    #expect(text(try await list.data(for: .fileURL)) == "file:///home/me/a%20b.txt")
  }

  @Test func gnomeListAndFileURLBecomeURIList() async throws {
    let gnome = item("cut\nfile:///tmp/x\nfile:///tmp/y", .gnomeCopiedFiles)
    #expect(text(try await gnome.data(for: .uriList)) == "file:///tmp/x\r\nfile:///tmp/y\r\n")
    #expect(text(try await gnome.data(for: .utf8PlainText)) == "/tmp/x\n/tmp/y")
    let single = item("file:///tmp/z", .fileURL)
    #expect(text(try await single.data(for: .uriList)) == "file:///tmp/z\r\n")
  }

  @Test func textIsNeverTurnedIntoAFileList() {
    let paths = item("/etc/hostname\n/etc/passwd")
    #expect(!paths.types.contains(.uriList))
    #expect(!paths.types.contains(.gnomeCopiedFiles))
  }
}
