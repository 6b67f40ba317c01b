import FerryCommandLine
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// One table of exit statuses: README.md's is the code's (`ExitStatus.meaning`), every
/// tool's `--help` prints it, and each status is what a real command ends with, with one
/// line on standard error.
@Suite(.skipsWithoutPeers) struct ExitStatusTests {
  static let readme = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("README.md")

  /// The rows of README.md's `| status | meaning |` table.
  static func readmeTable() throws -> [(status: Int32, meaning: String)] {
    let lines = try String(contentsOf: readme, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    guard let header = lines.firstIndex(where: { $0.hasPrefix("| status | meaning |") }) else {
      return []
    }
    return lines[(header + 2)...].prefix { $0.hasPrefix("| ") }.compactMap { line in
      let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
      guard cells.count == 2, let status = Int32(cells[0]) else { return nil }
      return (status, cells[1])
    }
  }

  @Test func readmesTableIsTheCodesTable() throws {
    let documented = try Self.readmeTable().map { "\($0.status) \($0.meaning)" }
    let code = ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" }
    #expect(documented == code)
  }

  @Test(arguments: ["pbcopy", "pbpaste", "ferry"])
  func helpPrintsTheTable(tool: String) async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let help = try await fixture.run([tool, "--help"])
    #expect(help.status == 0)
    #expect(help.stdoutText.contains(ExitStatus.helpText), "\(help.stdoutText)")
  }

  /// Each failure is `program: message` on one line, and only that.
  static func expectOneLine(
    _ result: PeerProcess.Result, _ program: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let text = result.stderrText
    #expect(
      text.hasPrefix("\(program): ") && text.hasSuffix("\n")
        && text.split(separator: "\n").count == 1,
      "stderr: \(text)", sourceLocation: sourceLocation)
  }

  @Test func zeroOneTwoFiveAndSixWithABroker() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    // 1: nothing there.
    let empty = try await fixture.run(["pbpaste"])
    #expect(empty.status == ExitStatus.nothingAvailable.rawValue)
    Self.expectOneLine(empty, "pbpaste")
    // 0: a copy.
    let copy = try await fixture.run(["pbcopy"], input: Data("hello".utf8))
    #expect(copy.status == ExitStatus.success.rawValue)
    #expect(copy.stderrText.isEmpty, "\(copy.stderrText)")
    // 1: a type the copy does not have.
    let png = try await fixture.run(["pbpaste", "--type", "png"])
    #expect(png.status == ExitStatus.nothingAvailable.rawValue)
    Self.expectOneLine(png, "pbpaste")
    // 2: an unknown option, from pbcopy's quick parse and from the argument parser.
    for arguments in [
      ["pbcopy", "--bogus"], ["ferry", "copy", "--bogus", "x"], ["pbpaste", "-Prefer", "pdf"],
    ] {
      let usage = try await fixture.run(arguments, input: Data("replacement".utf8))
      #expect(usage.status == ExitStatus.usage.rawValue, "\(arguments)")
      Self.expectOneLine(usage, arguments[0])
    }
    // 5: bytes that are not UTF-8, given as text.
    let notText = try await fixture.run(
      ["pbcopy", "--type", "public.utf8-plain-text"], input: Data([0xFF, 0xFE, 0x41]))
    #expect(notText.status == ExitStatus.badInput.rawValue)
    Self.expectOneLine(notText, "pbcopy")
    // 6: a file that is not there.
    let missing = try await fixture.run([
      "pbcopy", fixture.runtime.appendingPathComponent("missing.txt").path,
    ])
    #expect(missing.status == ExitStatus.io.rawValue)
    Self.expectOneLine(missing, "pbcopy")
    #expect(
      try await fixture.run(["pbpaste"]).stdoutText == "hello", "no failure replaced the copy")
    try await fixture.stop()
  }

  /// 3: no `DISPLAY`, no broker, and no terminal to send OSC 52 to. `FERRY_OSC52=never`
  /// stands for "no terminal": `swift test` run from a terminal gives its children one.
  @Test func threeWithoutDisplayBrokerOrTerminal() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let copy = try await fixture.run(
      ["pbcopy"], input: Data("hello".utf8), environment: ["FERRY_OSC52": "never"])
    #expect(copy.status == ExitStatus.noDisplayNoBroker.rawValue)
    Self.expectOneLine(copy, "pbcopy")
    let paste = try await fixture.run(["pbpaste"], environment: ["FERRY_OSC52": "never"])
    #expect(paste.status == ExitStatus.noDisplayNoBroker.rawValue)
    Self.expectOneLine(paste, "pbpaste")
    let status = try await fixture.run(["ferry", "status"])
    #expect(status.status == ExitStatus.noDisplayNoBroker.rawValue)
    Self.expectOneLine(status, "ferry")
  }

  /// 4: an X owner that never answers (`Tests/Peers/hostile_owner.c silent`), read without
  /// a broker with `--timeout 1`.
  @Test func fourFromAnOwnerThatNeverAnswers() async throws {
    let xvfb = try await XvfbServer.dedicated("exit-status")
    let owner = try await DetachedThread.run { try CompiledPeer.build("hostile_owner.c") }
    let fixture = try await BrokerFixture(display: xvfb.name, start: false)
    let silent = try fixture.start([owner, "CLIPBOARD", "silent"])
    defer { _ = silent.kill() }
    try #require(await waitForOutput(silent, "ready"), "hostile_owner owns CLIPBOARD")
    for arguments in [["pbpaste", "--timeout", "1"], ["ferry", "paste", "--timeout", "1"]] {
      let paste = try await fixture.run(arguments)
      #expect(paste.status == ExitStatus.timeout.rawValue, "\(arguments)")
      Self.expectOneLine(paste, arguments[0])
    }
  }
}
