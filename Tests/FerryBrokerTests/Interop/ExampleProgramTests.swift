import FerryTestSupport
import Foundation
import Testing

/// The example programs of `Examples/`, run against a headless broker as a reader of the
/// README would run them (built by Scripts/test into `.build-examples`).
@Suite struct ExampleProgramTests {
  @Test func registerProfileTypeTeachesTheBrokerToPasteAProfileAsItsName() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let register = try await fixture.run([try Tools.example("RegisterProfileType")])
    #expect(register.status == 0, "\(register.stderrText)")
    // A profile copied by a program that offers only the JSON, not Swift's text proxy.
    let file = fixture.runtime.appendingPathComponent("juan.json")
    try Data(#"{"name": "Juan Chavez", "bio": "Ceramicist"}"#.utf8).write(to: file)
    #expect(
      try await fixture.run(["ferry", "copy", "--type", "com.example.profile", file.path]).status
        == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "Juan Chavez")
    try await fixture.stop()
  }

  @Test func historyReaderListsSearchesAndShowsEntries() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    for text in ["release notes for 2.0", "shopping list"] {
      #expect(try await fixture.run(["pbcopy"], input: Data(text.utf8)).status == 0)
    }
    var listed = ""
    let recorded = await Deadline.wait(for: .seconds(20)) { () async -> Bool in
      listed = (try? await fixture.run([try Tools.example("HistoryReader")]).stdoutText) ?? ""
      return listed.contains("shopping list") && listed.contains("release notes")
    }
    #expect(recorded, "\(listed)")
    #expect(listed.hasSuffix("\nshopping list\n"), "the newest entry's text last: \(listed)")
    let search = try await fixture.run([try Tools.example("HistoryReader"), "release", "notes"])
    #expect(
      search.status == 0 && search.stdoutText.hasSuffix("\nrelease notes for 2.0\n"),
      "\(search.stdoutText)")
    let none = try await fixture.run([try Tools.example("HistoryReader"), "absentword"])
    #expect(none.status == 1 && none.stderrText == "HistoryReader: no entry matches 'absentword'\n")
    try await fixture.stop()
  }
}
