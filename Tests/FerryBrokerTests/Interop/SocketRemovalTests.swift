import FerryTestSupport
import Foundation
import Testing

/// A running broker whose socket file is removed listens again at the same path, keeping
/// its pasteboards.
@Suite struct SocketRemovalTests {
  @Test func theBrokerMakesItsSocketAgainWhenTheFileOrItsDirectoryIsRemoved() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let directory = fixture.runtime.appendingPathComponent("ferry")
    let socket = directory.appendingPathComponent("headless.sock")
    #expect(try await fixture.run(["pbcopy"], input: Data("kept".utf8)).status == 0)

    try FileManager.default.removeItem(at: socket)
    let back = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["pbpaste"]))?.stdoutText == "kept"
    }
    #expect(back, "pbpaste reaches the same broker again")
    #expect(try await fixture.run(["pbcopy"], input: Data("after rm".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "after rm")
    let second = try await fixture.run(["ferry", "daemon"])
    #expect(second.stderrText.contains("already running"), "still one broker: \(second.stderrText)")

    // The directory goes whole, at once (`rm -r` would race with the broker that makes its
    // socket again inside it).
    try FileManager.default.moveItem(
      at: directory, to: fixture.runtime.appendingPathComponent("gone"))
    let backAgain = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["pbpaste"]))?.stdoutText == "after rm"
    }
    #expect(backAgain, "the directory is made again too")

    let log = try await fixture.stop()
    #expect(log.contains("the socket file was removed; listening again"))
  }
}
