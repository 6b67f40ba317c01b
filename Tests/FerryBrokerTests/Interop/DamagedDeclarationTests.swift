import FerryTestSupport
import Foundation
import Testing

/// A declaration file that does not read never takes the broker down, now or at a later
/// start (issue 36): `ferry register` refuses it with one line and status 5 and keeps
/// nothing; a kept registration that no longer reads is set aside at start, and the broker
/// serves.
@Suite struct DamagedDeclarationTests {
  /// The 444-byte binary property list that FoundationEssentials' decoder trapped on.
  static func crashInput() throws -> Data {
    try Data(
      contentsOf: Tools.repository.appendingPathComponent(
        "Fuzz/Findings/declarations/found-utf16-string-past-the-end.bplist"))
  }

  /// Damaged files: the crash input, a sibling whose string runs further past the end, JSON
  /// with a number JSON has not, and a file that is no declaration file at all.
  static func damagedFiles() throws -> [(name: String, contents: Data)] {
    var sibling = [UInt8](try crashInput())
    sibling[236] = 0x6F
    sibling[237] = 0x11
    sibling[238] = 0x7F
    return [
      ("crash.bplist", try crashInput()),
      ("sibling.bplist", Data(sibling)),
      ("leading-zero.json", Data(#"{"FerryConversions": [], "n": 01}"#.utf8)),
      ("no-declarations.json", Data(#"{"name": "x"}"#.utf8)),
    ]
  }

  func registered(_ fixture: BrokerFixture) -> URL {
    fixture.runtime.appendingPathComponent(".local/share/ferry/registered")
  }

  @Test func aDamagedFileIsRefusedInOneLineAndTheBrokerKeepsServing() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("kept copy".utf8)).status == 0)
    for (name, contents) in try Self.damagedFiles() {
      let file = fixture.runtime.appendingPathComponent(name)
      try contents.write(to: file)
      let register = try await fixture.run(["ferry", "register", file.path])
      #expect(register.status == 5, "\(name): \(register.stderrText)")
      #expect(
        register.stderrText.split(separator: "\n").count == 1
          && register.stderrText.contains(name), "\(name): \(register.stderrText)")
      let kept = (try? FileManager.default.contentsOfDirectory(atPath: registered(fixture).path))
      #expect(kept?.contains(name) != true, "\(name) was kept: \(kept ?? [])")
      #expect(try await fixture.run(["pbpaste"]).stdoutText == "kept copy", "after \(name)")

      let type = try await fixture.run(["ferry", "type", "--declarations", file.path, "txt"])
      #expect(type.status == 5, "ferry type --declarations \(name): \(type.stderrText)")
      #expect(type.stderrText.split(separator: "\n").count == 1, "\(type.stderrText)")
    }
    try await fixture.stop()
    try await fixture.startDaemon()
    #expect(try await fixture.run(["ferry", "status"]).status == 0)
    #expect(try await fixture.run(["pbcopy"], input: Data("after".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "after")
    try await fixture.stop()
  }

  @Test func aKeptRegistrationThatNoLongerReadsIsSetAsideAndTheBrokerStarts() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let declaration = try RegistrationPersistenceTests.writeDeclaration(
      in: fixture.runtime.appendingPathComponent("declarations"))
    #expect(try await fixture.run(["ferry", "register", declaration.path]).status == 0)
    try await fixture.stop()

    // The kept copy is damaged on disk, as a broker that checked less would have kept it.
    let kept = registered(fixture).appendingPathComponent("card.json")
    #expect(FileManager.default.fileExists(atPath: kept.path))
    try Self.crashInput().write(to: kept)
    try await fixture.startDaemon()
    #expect(try await fixture.run(["pbcopy"], input: Data("served".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "served")
    let log = try await fixture.stop()
    let lines = log.split(separator: "\n").filter { $0.contains("no longer reads") }
    #expect(lines.count == 1, "\(log.suffix(800))")
    #expect(lines.first?.contains(kept.path) == true && lines.first?.contains("set-aside") == true)
    let aside = registered(fixture).appendingPathComponent("set-aside/card.json")
    #expect(try Data(contentsOf: aside) == (try Self.crashInput()), "moved aside, not deleted")
    #expect(!FileManager.default.fileExists(atPath: kept.path))
    let index = try String(
      contentsOf: registered(fixture).appendingPathComponent("index.json"), encoding: .utf8)
    #expect(!index.contains("card.json"), "\(index)")

    // The next start has nothing to say of it, and registering the file again works.
    try await fixture.startDaemon()
    #expect(try await fixture.run(["ferry", "register", declaration.path]).status == 0)
    let second = try await fixture.stop()
    #expect(!second.contains("no longer reads"), "\(second.suffix(800))")
  }

  @Test func anUnreadableIndexIsSetAsideAndTheBrokerStarts() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let directory = registered(fixture)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("[{\"name\": 01}".utf8).write(to: directory.appendingPathComponent("index.json"))
    try await fixture.startDaemon()
    #expect(try await fixture.run(["pbcopy"], input: Data("served".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "served")
    let log = try await fixture.stop()
    #expect(
      log.split(separator: "\n").filter { $0.contains("does not read, moved to") }.count == 1,
      "\(log.suffix(800))")
    #expect(FileManager.default.fileExists(atPath: directory.path + "/set-aside/index.json"))
  }
}
