import FerryProtocol
import FerryTestSupport
import Foundation
import Testing

/// The configuration file against a real `ferry daemon`: a wrong file stops it with one
/// line, a right one sets the history, the environment wins over it, and `ferry config`
/// says where each value came from.
@Suite struct ConfigurationInteropTests {
  @Test(arguments: [
    (
      "# mine\ncapture-limit: 64\nhistroy:\n  entries: 5\n",
      ":3: unknown key 'histroy' (did you mean 'history'?)"
    ),
    (
      "history:\n  entries: plenty\n",
      ":2: history.entries: 'plenty' is not a whole number of entries, from 1 to 100000000"
    ),
    ("timeouts: {capture: 2\n", ":2:1: not valid YAML"),
  ])
  func aWrongFileStopsTheDaemonWithOneLineNamingFileLineAndKey(text: String, message: String)
    async throws
  {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let path = try fixture.writeConfiguration(text)
    let daemon = try await fixture.run(["ferry", "daemon"])
    #expect(daemon.status == 2, "\(daemon.stderrText)")
    let lines = daemon.stderrText.split(separator: "\n")
    #expect(
      lines.count == 1 && lines[0].hasPrefix("ferry: \(path)\(message)"), "\(daemon.stderrText)")
    #expect(
      !FileManager.default.fileExists(
        atPath: fixture.runtime.appendingPathComponent("ferry/socket").path))
    #expect(try await fixture.run(["ferry", "status"]).status == 3, "no broker started")
    // `ferry config` checks the file the same way.
    let check = try await fixture.run(["ferry", "config"])
    #expect(check.status == 2 && check.stderrText == daemon.stderrText, "\(check.stderrText)")
  }

  @Test func aBadEnvironmentValueOrFlagIsOneLineNamingIt() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let variable = try await DetachedThread.run {
      try PeerProcess.run(
        [try Tools.path("ferry"), "daemon"], display: nil,
        environment: fixture.environment.merging(["FERRY_SERVE_TIMEOUT": "soon"]) { $1 })
    }
    #expect(variable.status == 2)
    #expect(
      variable.stderrText
        == "ferry: FERRY_SERVE_TIMEOUT='soon' is not a number of seconds, more than 0 and at most 3600 (timeouts.serve)\n"
    )
    let flag = try await fixture.run(["ferry", "daemon", "--capture-limit=-1"])
    #expect(flag.status == 2)
    #expect(
      flag.stderrText
        == "ferry: --capture-limit: '-1' is not a whole number of MiB, from 0 to 16777216\n")
  }

  @Test func theFileSetsTheHistoryAndAFlagOverridesIt() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    try fixture.writeConfiguration(
      """
      history:
        entries: 2          # the two newest
        ignore: [PBCOPY]    # any case
      """)
    try await fixture.startDaemon()
    // pbcopy's copies are left out; `ferry copy`'s are kept, two at most.
    #expect(try await fixture.run(["pbcopy"], input: Data("left out".utf8)).status == 0)
    for text in ["one", "two", "three"] {
      #expect(try await fixture.run(["ferry", "copy", "-"], input: Data(text.utf8)).status == 0)
    }
    var previews: [String] = []
    let settled = await Deadline.wait(for: .seconds(20)) { () async -> Bool in
      previews = ((try? await HistoryCommandTests.entries(fixture)) ?? []).map { $0.preview ?? "" }
      return previews.first == "three"
    }
    #expect(settled && previews == ["three", "two"], "\(previews)")
    try await fixture.stop()

    // A flag wins over the file: now pbcopy is recorded too.
    try await fixture.startDaemon(arguments: ["--history-ignore", "nobody"])
    #expect(try await fixture.run(["pbcopy"], input: Data("kept now".utf8)).status == 0)
    let recorded = await Deadline.wait(for: .seconds(20)) { () async -> Bool in
      ((try? await HistoryCommandTests.entries(fixture)) ?? []).first?.preview == "kept now"
    }
    #expect(recorded)
    try await fixture.stop()
  }

  @Test func ferryConfigSaysWhereEachValueCameFrom() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let path = try fixture.writeConfiguration(
      "capture-limit: 128\n\nhistory:\n  entries: 50\n  size: 10\n")
    let result = try await DetachedThread.run {
      try PeerProcess.run(
        [try Tools.path("ferry"), "config", "--json"], display: nil,
        environment: fixture.environment.merging(["FERRY_HISTORY_MIB": "20"]) { $1 })
    }
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    #expect(object["file"] as? String == path)
    let keys = try #require(object["keys"] as? [String: [String: Any]])
    func value(_ key: String) -> Int? { keys[key]?["value"] as? Int }
    func source(_ key: String) -> [String: Any]? { keys[key]?["source"] as? [String: Any] }
    #expect(value("capture-limit") == 128 && source("capture-limit")?["line"] as? Int == 1)
    #expect(value("history.entries") == 50 && source("history.entries")?["line"] as? Int == 4)
    #expect(
      value("history.size") == 20
        && source("history.size")?["variable"] as? String == "FERRY_HISTORY_MIB")
    #expect(
      value("history.item-size") == 256
        && source("history.item-size")?["kind"] as? String == "default")
    #expect(Set(keys.keys).count == 15, "the 11 of the broker and history, and sync's 4")
    // The table names the same sources.
    let table = try await fixture.run(["ferry", "config"])
    #expect(table.stdoutText.contains("history.entries     50"), "\(table.stdoutText)")
    #expect(table.stdoutText.contains("\(path):4"), "\(table.stdoutText)")
  }
}
