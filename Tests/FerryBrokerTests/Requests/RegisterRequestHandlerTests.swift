import FerryProtocol
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// `register` driven on the handler, no socket: a declaration file in DATA frames, checked,
/// kept and registered — or refused with nothing kept.
@Suite struct RegisterRequestHandlerTests {
  /// The profile example's declaration under an identifier of this suite's own: type
  /// declarations are the process's, and another suite declares `com.example.profile` with
  /// its tags.
  static let profileDeclaration = #"""
    { "UTExportedTypeDeclarations": [ { "UTTypeIdentifier": "com.example.handler-profile",
        "UTTypeConformsTo": ["public.json"] } ],
      "FerryConversions": [ { "from": "com.example.handler-profile",
        "to": "public.utf8-plain-text", "jsonField": "name" } ] }
    """#

  /// The declaration files the spool keeps (no data directory is configured).
  static func kept(in fixture: RequestHandlerFixture) -> [String] {
    (try? FileManager.default.contentsOfDirectory(
      atPath: fixture.state.spool.path + "/declarations")) ?? []
  }

  /// `text` cut into DATA frames of `size` bytes, then END.
  static func frames(_ text: String, size: Int = 16) -> [Frame] {
    let bytes = Array(text.utf8)
    return stride(from: 0, to: bytes.count, by: size).map {
      Frame(kind: .data, body: Array(bytes[$0..<min($0 + size, bytes.count)]))
    } + [.end]
  }

  @Test func registerTeachesTheBrokerAConversion() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream(Self.frames(Self.profileDeclaration))
      let answer = try await fixture.handler.register(
        RegisterRequest(name: "/home/me/profile.json", allowExampleNamespace: true),
        frames: &frames)
      #expect(answer.problems.isEmpty, "\(answer.problems)")
      #expect(Self.kept(in: fixture) == ["profile.json"])
      fixture.put([
        .data(
          Data(#"{"name":"Juan Chavez","bio":"Ceramicist"}"#.utf8),
          type: UTType(importedAs: "com.example.handler-profile"))
      ])
      let sink = RecordingFrameSink()
      try await fixture.handler.read(
        ReadRequest(types: ["public.utf8-plain-text"]), answeringTo: sink)
      #expect(sink.frames.dropFirst().first?.text == "Juan Chavez")
    }
  }

  @Test func problemsNameTheClientsFileNotTheBrokersCopy() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream(
        Self.frames(
          #"{ "FerryConversions": [ { "from": "public.json", "to": "public.utf8-plain-text" } ] }"#)
      )
      let answer = try await fixture.handler.register(
        RegisterRequest(name: "/home/me/broken.json"), frames: &frames)
      #expect(answer.problems.count == 1)
      #expect(answer.problems.first?.hasPrefix("broken.json: ") == true, "\(answer.problems)")
      #expect(answer.problems.allSatisfy { !$0.contains(fixture.state.spool.path) })
    }
  }

  @Test(arguments: ["not json", "[1, 2", "{\"FerryConversions\": 7}", "{}"])
  func aFileThatDoesNotParseIsRefusedAndNothingIsKept(_ contents: String) async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream(Self.frames(contents) + [.data("next")])
      let failure = await RequestHandlerFixture.failure {
        _ = try await fixture.handler.register(
          RegisterRequest(name: "junk.json"), frames: &frames)
      }
      #expect(failure?.code == .invalidDeclaration)
      #expect(failure?.closesConnection == false)
      #expect(failure?.message.hasPrefix("junk.json: ") == true, "\(failure?.message ?? "")")
      #expect(Self.kept(in: fixture).isEmpty, "a file that does not parse is never kept")
      let next = try await frames.nextFrame()
      #expect(next == .data("next"), "read up to its END, no further")
    }
  }

  @Test func aFilePastTheLimitClosesTheConnectionAndIsNotKept() async throws {
    try await RequestHandlerFixture.with({ $0.declarationLimit = 32 }) { fixture in
      var frames = EmbeddedFrameStream(Self.frames(Self.profileDeclaration))
      let failure = await RequestHandlerFixture.failure {
        _ = try await fixture.handler.register(
          RegisterRequest(name: "profile.json", allowExampleNamespace: true), frames: &frames)
      }
      #expect(failure?.code == .badRequest)
      #expect(failure?.closesConnection == true)
      #expect(Self.kept(in: fixture).isEmpty)
    }
  }

  @Test func aRegisterTheClientAbandonsKeepsNothing() async throws {
    try await RequestHandlerFixture.with { fixture in
      var frames = EmbeddedFrameStream([.data("{")])
      await #expect(throws: ConnectionEnded.self) {
        _ = try await fixture.handler.register(RegisterRequest(name: "a.json"), frames: &frames)
      }
      #expect(Self.kept(in: fixture).isEmpty)
    }
  }

  @Test(arguments: [
    ("/home/me/profile.json", "profile.json"), ("a b.json", "a_b.json"), ("..", "declaration.json"),
    ("", "declaration.json"), ("dir/", "dir"), ("é.json", "_.json"),
  ])
  func aClientsNameBecomesASafeFileName(_ name: String, _ safe: String) {
    #expect(BrokerRequestHandler.fileName(name) == safe)
  }
}
