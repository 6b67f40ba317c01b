import FerryTestSupport
import Foundation
import Testing

/// Mistakes on the command line cost nothing: one line, status 2, the previous copy kept.
@Suite struct BadInputTests {
  @Test(arguments: [
    (["pbcopy", "-pboard", "genral"], "did you mean 'general'?"),
    (["pbcopy", "-pboard", "Primray"], "did you mean 'primary'?"),
    (["pbcopy", "--type", "image/"], "'image/' is not a MIME type"),
    (["pbcopy", "--type", "/png"], "'/png' is not a MIME type"),
    (["pbpaste", "-pboard", "clipbaord"], "did you mean 'clipboard'?"),
  ])
  func aMisspelledPasteboardOrAMalformedMIMETypeIsAUsageError(arguments: [String], message: String)
    async throws
  {
    let fixture = try await BrokerFixture(display: nil, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("kept".utf8)).status == 0)
    let result = try await fixture.run(arguments, input: Data("replacement".utf8))
    #expect(result.status == 2, "\(result.stderrText)")
    #expect(
      result.stderrText.split(separator: "\n").count == 1 && result.stderrText.contains(message),
      "\(result.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "kept", "the previous copy stays")
    // A name unlike the standard ones is a pasteboard of one's own, on purpose.
    #expect(
      try await fixture.run(["pbcopy", "-pboard", "snippets"], input: Data("mine".utf8)).status == 0
    )
    #expect(try await fixture.run(["pbpaste", "-pboard", "snippets"]).stdoutText == "mine")
    try await fixture.stop()
  }
}
