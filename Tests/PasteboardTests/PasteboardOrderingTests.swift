import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

@Suite struct PasteboardOrderingTests {
  let profile = Profile(name: "Juan Chavez", bio: "Ceramicist")

  @Test func profileItemListsItsOwnTypeFirstThenText() async throws {
    let board = isolatedPasteboard()
    board.write(profile)
    let types = board.types
    #expect(types.first == .testProfile)
    #expect(Array(types.prefix(3)) == [.testProfile, .utf8PlainText, .plainText])
    #expect(types.contains(.latin1PlainText))
    #expect(types.firstIndex(of: .latin1PlainText)! > types.firstIndex(of: .plainText)!)
  }

  @Test func textReaderGetsTheNameAndProfileReaderGetsTheJSON() async throws {
    let board = isolatedPasteboard()
    board.write(profile)
    #expect(text(try await board.data(for: .utf8PlainText)) == "Juan Chavez")
    #expect(text(try await board.data(for: .plainText)) == "Juan Chavez")
    let json = try await board.data(for: .testProfile)
    #expect(try JSONDecoder().decode(Profile.self, from: json) == profile)
    #expect(try await board.read(Profile.self) == profile)
    #expect(try await board.read(String.self) == "Juan Chavez")
  }

  @Test func swappedRepresentationOrderFlipsWhatAJSONReaderGets() async throws {
    // public.json readers: the profile type conforms to JSON, text does not.
    let board = isolatedPasteboard()
    board.write([
      PasteboardItem(representations: [
        .data(Data("plain".utf8), type: .utf8PlainText),
        .data(Data(#"{"name":"x","bio":"y"}"#.utf8), type: .testProfile),
      ])
    ])
    #expect(board.types.first == .utf8PlainText)
    #expect(text(try await board.data(for: .text)) == "plain")
    #expect(text(try await board.data(for: .json)) == #"{"name":"x","bio":"y"}"#)
  }

  @Test func typesListStoredTypesThenConversionsInTheOrderOfTheirSource() {
    let item = PasteboardItem(
      representations: [
        .data(Data("file:///tmp/a%20b\r\n".utf8), type: .uriList),
        .data(Data("héllo".utf8), type: .utf8PlainText),
      ], converters: ConverterRegistry())
    let types = item.types
    #expect(Array(types.prefix(2)) == [.uriList, .utf8PlainText])
    // Conversions of the URI list come before those of the text, each type once.
    #expect(types.firstIndex(of: .gnomeCopiedFiles)! < types.firstIndex(of: .latin1PlainText)!)
    #expect(Set(types).count == types.count)
  }

  @Test func registeredTransferableTypeConvertsStoredJSONIntoText() async throws {
    let board = isolatedPasteboard(registering: [TransferableConverter(Profile.self)])
    let json = try JSONEncoder().encode(profile)
    board.write([
      PasteboardItem(
        representations: [.data(json, type: .testProfile)], converters: board.converters)
    ])
    #expect(board.types.first == .testProfile)
    #expect(board.types.contains(.utf8PlainText))
    #expect(text(try await board.data(for: .utf8PlainText)) == "Juan Chavez")
  }

  @Test func conversionChainsRunThroughSeveralConverters() async throws {
    // JSON → name (registered type) → Latin-1 (built-in).
    let board = isolatedPasteboard(registering: [TransferableConverter(Profile.self)])
    let json = try JSONEncoder().encode(Profile(name: "Zoë", bio: ""))
    board.write([
      PasteboardItem(
        representations: [.data(json, type: .testProfile)], converters: board.converters)
    ])
    let latin1 = try await board.data(for: .latin1PlainText)
    #expect(Array(latin1) == [0x5A, 0x6F, 0xEB])
    let utf16 = try await board.data(for: .utf16PlainText)
    #expect(Array(utf16) == [0x5A, 0, 0x6F, 0, 0xEB, 0])
  }

  @Test func availableTypeFollowsTheCallersPreference() {
    let board = isolatedPasteboard()
    board.write(profile)
    #expect(board.availableType(from: [.png, .plainText, .testProfile]) == .plainText)
    #expect(board.availableType(from: [.json, .plainText]) == .json)
    #expect(board.availableType(from: [.png, .pdf]) == nil)
    #expect(board.canRead(conformingTo: [.text]))
    #expect(!board.canRead(conformingTo: [.image]))
  }

  /// The caller's order decides the type; among items, the first that serves it.
  @Test func choiceNamesTheItemTheRequestedTypeAndTheServedType() {
    let board = isolatedPasteboard()
    let png = PasteboardItem(
      representations: [.data(Data([0x89]), type: .png)], converters: board.converters)
    let text = PasteboardItem(
      representations: [.data(Data("hi".utf8), type: .utf8PlainText)], converters: board.converters)
    board.write([png, text])
    let choice = board.choice(for: [.pdf, .text, .png])
    #expect(choice?.item === text, "text comes before png in the caller's order")
    #expect(choice?.requested == .text)
    #expect(choice?.served == .utf8PlainText, "served as the stored type that conforms")
    #expect(board.choice(for: [.image])?.item === png)
    #expect(board.choice(for: [.pdf]) == nil)
  }

  @Test func missingTypeErrorNamesTheTypeAndWhatIsOffered() async throws {
    let board = isolatedPasteboard()
    await #expect(throws: PasteboardError.self) { try await board.data(for: .png) }
    board.write(profile)
    do {
      _ = try await board.data(for: .png)
      Issue.record("expected an error")
    } catch let error as PasteboardError {
      #expect(error.description.contains("public.png"))
      #expect(error.description.contains("com.example.profile"))
    }
  }
}
