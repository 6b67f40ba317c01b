import FerryConfiguration
import Foundation
import Testing

/// Which value wins, and where it is said to come from.
@Suite struct EffectiveConfigurationTests {
  let file: ConfigurationFile

  init() throws {
    file = try ConfigurationFile(
      path: "/c", text: "capture-limit: 8\nhistory:\n  entries: 50\n  size: 10\n")
  }

  @Test func aFlagBeatsTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefault() throws {
    let configuration = try EffectiveConfiguration(
      file: file, environment: ["FERRY_HISTORY_ENTRIES": "70", "FERRY_HISTORY_MIB": "20"],
      flags: [.historySize: .number(30)])
    #expect(configuration[.captureLimit].source == .file(path: "/c", line: 1))
    #expect(configuration.number(.captureLimit) == 8)
    #expect(
      configuration[.historyEntries].source == .environment(variable: "FERRY_HISTORY_ENTRIES"))
    #expect(configuration.number(.historyEntries) == 70)
    #expect(configuration[.historySize].source == .flag("--history-size"))
    #expect(configuration.number(.historySize) == 30)
    #expect(configuration[.historyItemSize].source == .defaultValue)
    #expect(configuration.number(.historyItemSize) == 256)
    #expect(configuration.entries.map(\.key) == ConfigurationKey.all)
  }

  @Test func anEmptyVariableIsUnsetAndABadOneNamesTheVariable() throws {
    #expect(
      try EffectiveConfiguration(file: file, environment: ["FERRY_CAPTURE_LIMIT": ""]).number(
        .captureLimit) == 8)
    #expect(
      throws: ConfigurationError("FERRY_HISTORY='sometimes' is not true or false (history.enabled)")
    ) {
      try EffectiveConfiguration(file: nil, environment: ["FERRY_HISTORY": "sometimes"])
    }
    let names = try EffectiveConfiguration(
      file: nil, environment: ["FERRY_HISTORY_IGNORE": "KeePassXC, Bitwarden,"])
    #expect(names.names(.historyIgnore) == ["KeePassXC", "Bitwarden"])
  }

  @Test func theFileIsFoundWhereXDGSaysAndANamedFileMustExist() throws {
    #expect(
      EffectiveConfiguration.filePath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == (
        "/x/ferry/config", false
      ))
    #expect(
      EffectiveConfiguration.filePath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"])
        == ("/h/.config/ferry/config", false))
    #expect(
      EffectiveConfiguration.filePath(environment: ["FERRY_CONFIG": "/f", "XDG_CONFIG_HOME": "/x"])
        == ("/f", true))
    let missing = "/nonexistent-\(UUID().uuidString)/config"
    #expect(
      try EffectiveConfiguration.load(environment: ["HOME": "/nonexistent-\(UUID().uuidString)"])
        .filePath == nil)
    #expect(throws: ConfigurationError("cannot read \(missing): no such file")) {
      try EffectiveConfiguration.load(environment: ["FERRY_CONFIG": missing])
    }
  }

  @Test func secondsAreShownAsWritten() {
    #expect(ConfigurationValue.duration(.milliseconds(250)).description == "0.25")
    #expect(ConfigurationValue.duration(.seconds(5)).description == "5")
    #expect(ConfigurationValue.duration(.milliseconds(1500)).description == "1.5")
  }
}
