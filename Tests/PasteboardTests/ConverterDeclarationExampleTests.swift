import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

/// The profile example as a declaration file: `Examples/Declarations/profile.json`.
@Suite struct ConverterDeclarationExampleTests {
  let profileFile = exampleDeclarations.appendingPathComponent("profile.json").path
  let profileJSON = Data(#"{"name": "Juan Chavez", "bio": "Ceramicist"}"#.utf8)

  /// A fresh registry with the example registered.
  func registry() throws -> ConverterRegistry {
    let registry = ConverterRegistry()
    let problems = try registry.registerDeclarations(
      from: profileFile, allowingExampleNamespace: true)
    #expect(problems.isEmpty, "\(problems)")
    return registry
  }

  @Test func exampleDeclaresTheProfileType() throws {
    _ = try registry()
    let profile = try #require(UTType("com.example.profile"))
    #expect(profile.conforms(to: .json))
    #expect(profile.preferredFilenameExtension == "profile")
  }

  @Test func profileTypeComesFirstThenItsNameAsTextThenTextEncodings() throws {
    let registry = try registry()
    let profile = try #require(UTType("com.example.profile"))
    let board = declarationPasteboard(registry, holding: profileJSON, as: profile)
    #expect(
      board.types == [
        profile, .utf8PlainText, .latin1PlainText, .utf16PlainText, .utf16ExternalPlainText,
      ])
  }

  @Test func textReaderGetsTheNameAndProfileReaderGetsTheJSON() async throws {
    let registry = try registry()
    let profile = try #require(UTType("com.example.profile"))
    let board = declarationPasteboard(registry, holding: profileJSON, as: profile)
    #expect(utf8Text(try await board.data(for: .utf8PlainText)) == "Juan Chavez")
    #expect(utf8Text(try await board.data(for: .plainText)) == "Juan Chavez")
    #expect(try await board.data(for: profile) == profileJSON)
  }

  @Test func latin1ReaderGetsTheNameThroughAChain() async throws {
    let registry = try registry()
    let profile = try #require(UTType("com.example.profile"))
    let json = Data(#"{"name": "Zoë Café", "bio": "Potter"}"#.utf8)
    let board = declarationPasteboard(registry, holding: json, as: profile)
    // JSON → name (UTF-8) → Latin-1.
    let latin1 = try await board.data(for: try #require(UTType("org.x.string")))
    #expect(Array(latin1) == [0x5A, 0x6F, 0xEB, 0x20, 0x43, 0x61, 0x66, 0xE9])
  }

  @Test func nameLatin1CannotHoldIsRefusedForLatin1AndServedAsUTF8() async throws {
    let registry = try registry()
    let profile = try #require(UTType("com.example.profile"))
    let json = Data(#"{"name": "Price in €", "bio": ""}"#.utf8)
    let board = declarationPasteboard(registry, holding: json, as: profile)
    let error = await #expect(throws: PasteboardError.self) {
      try await board.data(for: .latin1PlainText)
    }
    guard case .conversionFailed(let from, let to, let reason)? = error else {
      Issue.record("expected a conversion failure, got \(String(describing: error))")
      return
    }
    #expect(from == .utf8PlainText && to == .latin1PlainText)
    #expect(reason.contains("Latin-1") && reason.contains("U+20AC"), "\(reason)")
    #expect(utf8Text(try await board.data(for: .utf8PlainText)) == "Price in €")
  }

  @Test func profileWithoutANameFailsTheTextRequestClearly() async throws {
    let registry = try registry()
    let profile = try #require(UTType("com.example.profile"))
    let board = declarationPasteboard(registry, holding: Data(#"{"bio": "x"}"#.utf8), as: profile)
    let error = await #expect(throws: PasteboardError.self) {
      try await board.data(for: .utf8PlainText)
    }
    #expect(
      error?.description
        == "converting com.example.profile to public.utf8-plain-text failed: "
        + "the JSON has no field 'name': the top level has no key 'name'")
  }

  @Test(.skipsWithoutPeers("python3"))
  func htmlExampleRendersTheProfileWithPython() async throws {
    let registry = try registry()
    let problems = try registry.registerDeclarations(
      from: exampleDeclarations.appendingPathComponent("profile-html.json").path)
    #expect(problems.isEmpty, "\(problems)")
    let profile = try #require(UTType("com.example.profile"))
    let json = Data(#"{"name": "Juan <Chavez>", "bio": "Ceramicist"}"#.utf8)
    let board = declarationPasteboard(registry, holding: json, as: profile)
    #expect(Array(board.types.prefix(3)) == [profile, .utf8PlainText, .html])
    #expect(
      utf8Text(try await board.data(for: .html))
        == "<h1>Juan &lt;Chavez&gt;</h1>\n<p>Ceramicist</p>\n")
  }
}
