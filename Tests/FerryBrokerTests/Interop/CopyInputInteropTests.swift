import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real `pbcopy` and `ferry copy` given the shell's usual inputs that are not regular
/// files: `/dev/stdin`, a process substitution, a FIFO, and endless devices such as
/// `/dev/zero`. A headless broker keeps the copies; no display is needed. One test at a time:
/// the endless inputs each take the limit's 1 GiB of memory.
@Suite(.serialized) struct CopyInputInteropTests {
  /// Runs `script` under bash with `$PBCOPY` and `$FERRY` naming the built tools.
  func bash(_ fixture: BrokerFixture, _ script: String, input: Data? = nil) async throws
    -> PeerProcess.Result
  {
    let tools = "PBCOPY=\(try Tools.path("pbcopy")) FERRY=\(try Tools.path("ferry"))"
    return try await fixture.run(["/bin/bash", "-c", "\(tools); \(script)"], input: input)
  }

  @Test func pbcopyReadsStandardInputNamedAsAFile() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let copy = try await fixture.run(
      ["pbcopy", "/dev/stdin"], input: Data("through /dev/stdin".utf8))
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "through /dev/stdin")
    try await fixture.stop()
  }

  @Test func pbcopyAndFerryCopyReadAProcessSubstitution() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let copy = try await bash(fixture, #""$PBCOPY" <(printf x)"#)
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "x")
    let ferry = try await bash(fixture, #""$FERRY" copy --type text <(printf 'from ferry copy')"#)
    #expect(ferry.status == 0, "\(ferry.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "from ferry copy")
    try await fixture.stop()
  }

  @Test func pbcopyReadsAFIFOToItsWritersEnd() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let fifo = fixture.runtime.appendingPathComponent("input.fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // The writer sends in two parts: the copy is the whole, read to the end of file.
    let writer = try fixture.start([
      "/bin/sh", "-c", "exec > \"$0\"; printf 'first '; printf second", fifo,
    ])
    let copy = try await fixture.run(["pbcopy", fifo])
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await DetachedThread.run { writer.finish() }.status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "first second")
    try await fixture.stop()
  }

  @Test func aRegularFileArgumentIsCopiedAsBefore() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let file = fixture.runtime.appendingPathComponent("notes.txt")
    try Data("a regular file".utf8).write(to: file)
    let copy = try await fixture.run(["pbcopy", file.path])
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "a regular file")
    try await fixture.stop()
  }

  /// `/dev/zero` as an argument and as standard input, and `yes` through a pipe: each stops
  /// at the stated limit with one true line and status 6, and the previous item stays. A copy
  /// that ran on would be killed at the run's timeout, with another status. (`yes` says
  /// "Broken pipe" when pbcopy stops reading: not pbcopy's line, so it is dropped.)
  @Test(arguments: [
    #""$PBCOPY" /dev/zero"#, #""$PBCOPY" < /dev/zero"#, #"yes 2>/dev/null | "$PBCOPY""#,
    #""$FERRY" copy /dev/zero"#,
  ])
  func anEndlessInputStopsAtTheLimitAndKeepsThePreviousItem(_ command: String) async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("before".utf8)).status == 0)
    let copy = try await bash(fixture, command)
    #expect(copy.status == 6, "\(copy.stderrText)")
    #expect(copy.stderrText.split(separator: "\n").count == 1, "one line: \(copy.stderrText)")
    #expect(copy.stderrText.contains("past 1 GiB"), "states the limit: \(copy.stderrText)")
    #expect(copy.stderrText.contains("the pasteboard keeps what it had"), "\(copy.stderrText)")
    #expect(!copy.stderrText.contains("Permission denied"))
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "before", "the previous item stays")
    try await fixture.stop()
  }

  /// Without a broker or a display, the input is still read first: a readable one ends with
  /// status 3 (nowhere to put it), an endless one with the limit's status 6.
  @Test func withoutABrokerOrADisplayTheInputIsReadBeforeStatus3() async throws {
    let none = try await BrokerFixture(display: nil, start: false)
    let stdin = try await none.run(["pbcopy", "/dev/stdin"], input: Data("x".utf8))
    #expect(stdin.status == 3, "\(stdin.stderrText)")
    #expect(stdin.stderrText.contains("no broker"), "\(stdin.stderrText)")
    let substitution = try await bash(none, #""$PBCOPY" <(printf x)"#)
    #expect(substitution.status == 3, "\(substitution.stderrText)")
    let endless = try await bash(none, #""$PBCOPY" /dev/zero"#)
    #expect(endless.status == 6, "\(endless.stderrText)")
    #expect(endless.stderrText.contains("past 1 GiB"), "\(endless.stderrText)")
  }
}
