import ArgumentParser
import FerryCommandLine
import FerryConfiguration
import JSONText

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
        let name = Output.padded(entry.key.name, to: width)
        let value = Output.padded(shown(entry.value), to: valueWidth)
        print("\(name)  \(value)  \(entry.source)")
      }
    }

    /// A value as the table shows it: an empty list as `[]`.
    func shown(_ value: ConfigurationValue) -> String { ConfigurationTemplate.example(value) }

    func printJSON(_ settings: EffectiveConfiguration) {
      var keys: [(String, CompactJSON)] = []
      for entry in settings.entries {
        let value: CompactJSON =
          switch entry.value {
          case .number(let number): .integer(number)
          case .toggle(let on): .bool(on)
          case .word(let word): .string(word)
          case .duration(let duration):
            .double(
              Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
          case .names(let names): .strings(names)
          }
        keys.append(
          (entry.key.name, .object([("value", value), ("source", Self.source(entry.source))])))
      }
      let file: CompactJSON = settings.filePath.map(CompactJSON.string) ?? .null
      print(Output.json(.object([("file", file), ("keys", .object(keys))])))
    }

    static func source(_ source: ConfigurationSource) -> CompactJSON {
      switch source {
      case .defaultValue: .object([("kind", .string("default"))])
      case .file(let path, let line):
        .object([("kind", .string("file")), ("path", .string(path)), ("line", .integer(line))])
      case .environment(let variable):
        .object([("kind", .string("environment")), ("variable", .string(variable))])
      case .flag(let flag): .object([("kind", .string("flag")), ("flag", .string(flag))])
      }
    }
  }
}
