import FerryTestSupport
import Foundation
import Testing

/// `ferry register` outlives the broker, and a declaration's `./script` command runs from
/// the directory the file was registered from (not the broker's copy of it).
@Suite struct RegistrationPersistenceTests {
  /// A declaration of `org.ferry.test.card` with a text field conversion and an HTML one by
  /// a script next to the file.
  static func writeDeclaration(in directory: URL) throws -> URL {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let script = directory.appendingPathComponent("render.sh")
    try Data("#!/bin/sh\nprintf '<b>'; cat; printf '</b>'\n".utf8).write(to: script)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let declaration = directory.appendingPathComponent("card.json")
    try Data(
      #"""
      { "UTExportedTypeDeclarations": [ { "UTTypeIdentifier": "org.ferry.test.card",
          "UTTypeConformsTo": ["public.json"] } ],
        "FerryConversions": [
          { "from": "org.ferry.test.card", "to": "public.utf8-plain-text", "jsonField": "name" },
          { "from": "org.ferry.test.card", "to": "public.html", "command": ["./render.sh"] } ] }
      """#.utf8
    ).write(to: declaration)
    return declaration
  }

  @Test func aRegistrationWithARelativeCommandWorksAndSurvivesARestart() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let declaration = try Self.writeDeclaration(
      in: fixture.runtime.appendingPathComponent("declarations"))
    let card = fixture.runtime.appendingPathComponent("card-value.json")
    let json = #"{"name":"Ana"}"#
    try Data(json.utf8).write(to: card)

    let register = try await fixture.run(["ferry", "register", declaration.path])
    #expect(register.status == 0 && register.stderrText.isEmpty, "\(register.stderrText)")
    #expect(
      try await fixture.run(["ferry", "copy", "--type", "org.ferry.test.card", card.path]).status
        == 0)
    let html = try await fixture.run(["pbpaste", "--type", "public.html"])
    #expect(
      html.stdoutText == "<b>\(json)</b>", "the script next to the file ran: \(html.stderrText)")

    try await fixture.stop()
    try await fixture.startDaemon()
    #expect(
      try await fixture.run(["ferry", "copy", "--type", "org.ferry.test.card", card.path]).status
        == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "Ana", "the field conversion is back")
    let again = try await fixture.run(["pbpaste", "--type", "public.html"])
    #expect(
      again.stdoutText == "<b>\(json)</b>", "the command conversion is back: \(again.stderrText)")
    let log = try await fixture.stop()
    #expect(log.contains("loaded 1 registered declaration file"), "\(log.suffix(600))")
  }
}
