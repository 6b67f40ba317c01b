import FerryTestSupport
import Foundation
import Testing

/// A display server added as one row of the table shows up in `ferry status` and its JSON,
/// with nothing in the broker, the protocol or `ferry` naming it (issue 37): the fixture
/// `ThirdBackendBroker` runs the broker with the standard table and the embedded backend.
@Suite struct ThirdBackendTests {
  @Test func aThirdDisplayServerIsListedByStatus() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let broker = try PeerProcess(
      [try Tools.path("ThirdBackendBroker")], display: nil,
      environment: fixture.environment.merging(["FERRY_EMBEDDED_DISPLAY": "embedded-0"]) { $1 })
    defer { _ = broker.kill() }
    let ready = await Deadline.wait(for: .seconds(20)) {
      (try? await fixture.run(["ferry", "status"]).status) == 0
    }
    #expect(ready, "the broker did not answer")

    let text = try await fixture.run(["ferry", "status"])
    #expect(
      text.stdoutText.contains("Embedded display embedded-0: bridged (in-process)"),
      "\(text.stdoutText)")
    #expect(!text.stdoutText.contains("no display"), "\(text.stdoutText)")

    let json = try await fixture.run(["ferry", "status", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any])
    let displays = try #require(object["displays"] as? [[String: Any]])
    #expect(displays.count == 1)
    #expect(displays.first?["kind"] as? String == "Embedded")
    #expect(displays.first?["name"] as? String == "embedded-0")
    #expect(displays.first?["protocol"] as? String == "in-process")
    #expect(displays.first?["bridged"] as? Bool == true)
    // The fields before the list say nothing of a kind they do not know.
    #expect(object["x11Bridged"] as? Bool == false)
    #expect(object["display"] is NSNull)

    // It is bridged like any other: a copy through the socket is owned on it.
    #expect(try await fixture.run(["pbcopy"], input: Data("to the third".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "to the third")
  }
}
