import ArgumentParser
import FerryCommandLine
import FerryConfiguration
import Foundation

extension Ferry {
  /// `ferry config`: the settings a daemon started now would use, and where each comes from.
  struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "config",
      abstract: "Show the daemon's settings in effect and where each came from.",
      discussion: """
        Reads ~/.config/ferry/config ($XDG_CONFIG_HOME/ferry/config, or $FERRY_CONFIG) and the \
        environment as `ferry daemon` would, and prints every key: its value and its source \
        (default, file:line, or the environment variable). A wrong file or value is one line \
        naming the file, line and key, with status 2: `ferry config` checks a file before the \
        daemon is restarted. --template prints a file with every key commented out.
        """)

    @Option(
      name: .customLong("config"),
      help: ArgumentHelp("The configuration file to read.", valueName: "file"))
    var configurationFile: String?
    @Flag(help: "Print a configuration file with every key, its default, flag and variable.")
    var template = false
    @Flag(help: "Print the configuration file's path only.")
    var path = false
    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      let environment = ProcessInfo.processInfo.environment
      if template { return print(ConfigurationTemplate.text, terminator: "") }
      if path {
        return print(
          configurationFile ?? EffectiveConfiguration.filePath(environment: environment).path)
      }
      let settings: EffectiveConfiguration
      do {
        settings = try EffectiveConfiguration.load(
          path: configurationFile, environment: environment)
      } catch {
        throw CommandFailure(error.message, status: .usage)
      }
      if json { return printJSON(settings) }
      let file =
        settings.filePath
        ?? "\(EffectiveConfiguration.filePath(environment: environment).path) (none)"
      print("file: \(file)")
      let width = ConfigurationKey.all.map(\.name.count).max() ?? 0
      let valueWidth = settings.entries.map { shown($0.value).count }.max() ?? 0
      for entry in settings.entries {
        let name = entry.key.name.padding(toLength: width, withPad: " ", startingAt: 0)
        let value = shown(entry.value).padding(toLength: valueWidth, withPad: " ", startingAt: 0)
        print("\(name)  \(value)  \(entry.source)")
      }
    }

    /// A value as the table shows it: an empty list as `[]`.
    func shown(_ value: ConfigurationValue) -> String { ConfigurationTemplate.example(value) }

    func printJSON(_ settings: EffectiveConfiguration) {
      var keys: [String: Any] = [:]
      for entry in settings.entries {
        let value: Any =
          switch entry.value {
          case .number(let number): number
          case .toggle(let on): on
          case .word(let word): word
          case .duration(let duration):
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
          case .names(let names): names
          }
        keys[entry.key.name] = ["value": value, "source": Self.source(entry.source)]
      }
      let object: [String: Any] = ["file": settings.filePath ?? NSNull(), "keys": keys]
      let data =
        (try? JSONSerialization.data(
          withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
      print(String(decoding: data, as: UTF8.self))
    }

    static func source(_ source: ConfigurationSource) -> [String: Any] {
      switch source {
      case .defaultValue: ["kind": "default"]
      case .file(let path, let line): ["kind": "file", "path": path, "line": line]
      case .environment(let variable): ["kind": "environment", "variable": variable]
      case .flag(let flag): ["kind": "flag", "flag": flag]
      }
    }
  }
}
