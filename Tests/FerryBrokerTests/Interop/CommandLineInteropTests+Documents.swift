import FerryTestSupport
import Foundation
import Testing

/// `ferry save` and `ferry open`: a copy with all its representations kept in a
/// `.pasteboard` document and put back, for xclip, pbpaste and the broker.
extension CommandLineInteropTests {
  @Test func aSavedDocumentReopensWithEveryRepresentationInOrder() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let json = fixture.runtime.appendingPathComponent("profile.json")
    let name = fixture.runtime.appendingPathComponent("name.txt")
    let profile = #"{"name":"Juan Chavez","id":7}"#
    try Data(profile.utf8).write(to: json)
    try Data("Juan Chavez".utf8).write(to: name)
    let copy = try await fixture.run([
      "ferry", "copy", "--type", "org.ferry.test.profile", json.path, "--type", "text", name.path,
    ])
    #expect(copy.status == 0, "\(copy.stderrText)")
    let document = fixture.runtime.appendingPathComponent("profile.pasteboard")

    let save = try await fixture.run(["ferry", "save", document.path])
    #expect(save.status == 0, "\(save.stderrText)")
    let manifest = try String(
      contentsOf: document.appendingPathComponent("manifest.json"), encoding: .utf8)
    let profileAt = try #require(manifest.range(of: "org.ferry.test.profile"))
    let textAt = try #require(manifest.range(of: "public.utf8-plain-text"))
    #expect(profileAt.lowerBound < textAt.lowerBound, "the item's order is kept: \(manifest)")

    #expect(try await fixture.run(["pbcopy"], input: Data("something else".utf8)).status == 0)
    let open = try await fixture.run(["ferry", "open", document.path])
    #expect(open.status == 0, "\(open.stderrText)")
    let targets = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
      .stdoutText
    #expect(targets.hasPrefix("org.ferry.test.profile\n"), "\(targets)")
    #expect(
      try await fixture.run([
        "xclip", "-o", "-selection", "clipboard", "-t", "org.ferry.test.profile",
      ]).stdoutText == profile)
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "Juan Chavez")
    #expect(
      try await fixture.run(["pbpaste", "--type", "org.ferry.test.profile"]).stdoutText == profile)

    // Without a broker the document is served from a background process, as pbcopy does.
    try await fixture.stop()
    #expect(try await fixture.run(["pbcopy"], input: Data("replaced".utf8)).status == 0)
    let reopen = try await fixture.run(["ferry", "open", document.path])
    #expect(reopen.status == 0, "\(reopen.stderrText)")
    let served = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run([
        "xclip", "-o", "-selection", "clipboard", "-t", "org.ferry.test.profile",
      ]).stdoutText) == profile
    }
    #expect(served)
    try await resetClipboard(fixture)
  }

  @Test func aConcealedCopyIsNeverSavedAndADamagedDocumentChangesNothing() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    #expect(
      try await fixture.run(["pbcopy", "--sensitive"], input: Data("hunter2".utf8)).status == 0)
    let document = fixture.runtime.appendingPathComponent("secret.pasteboard")
    let save = try await fixture.run(["ferry", "save", document.path])
    #expect(save.status == 1)
    #expect(save.stderrText.contains("concealed"), "\(save.stderrText)")
    #expect(!FileManager.default.fileExists(atPath: document.path), "nothing written")

    let damaged = fixture.runtime.appendingPathComponent("damaged.pasteboard")
    try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: false)
    try Data("{not json".utf8).write(to: damaged.appendingPathComponent("manifest.json"))
    let open = try await fixture.run(["ferry", "open", damaged.path])
    #expect(open.status == 5)
    #expect(
      open.stderrText.split(separator: "\n").count == 1
        && open.stderrText.contains("damaged.pasteboard"), "\(open.stderrText)")
    #expect(
      try await fixture.run(["pbpaste"]).stdoutText == "hunter2",
      "the pasteboard keeps what it held")

    let empty = try await fixture.run(["ferry", "save", "-pboard", "nothing-here", document.path])
    #expect(empty.status == 1, "\(empty.stderrText)")
    try await fixture.stop()
  }
}
