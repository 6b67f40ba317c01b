#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every key's value and where it came from: a flag wins over the environment, which wins
/// over the configuration file, which wins over the default.
///
/// ```swift
/// let configuration = try EffectiveConfiguration(
///   file: try ConfigurationFile.load(path: path), environment: ProcessInfo.processInfo.environment)
/// let entries = configuration.number(.historyEntries)
/// ```
public struct EffectiveConfiguration: Sendable {
  /// A key's value and its source.
  public struct Entry: Sendable, Equatable {
    /// The key.
    public let key: ConfigurationKey
    /// The value in effect.
    public let value: ConfigurationValue
    /// Where it came from.
    public let source: ConfigurationSource
  }

  /// Every key, in ``ConfigurationKey/all``'s order.
  public let entries: [Entry]
  /// The file read, if there was one.
  public let filePath: String?

  /// Resolves every key.
  ///
  /// - Parameters:
  ///   - file: The configuration file, or `nil` when there is none.
  ///   - environment: The environment; each key's variable, when set and not empty, wins
  ///     over the file.
  ///   - flags: Values given on the command line, by key name, already checked by the
  ///     argument parser.
  /// - Throws: ``ConfigurationError`` naming the variable of a bad environment value.
  public init(
    file: ConfigurationFile?, environment: [String: String],
    flags: [ConfigurationKey: ConfigurationValue] = [:]
  ) throws(ConfigurationError) {
    var entries: [Entry] = []
    for key in ConfigurationKey.all {
      if let value = flags[key] {
        entries.append(Entry(key: key, value: value, source: .flag(key.flag ?? key.name)))
      } else if let text = environment[key.variable], !text.isEmpty {
        guard let value = key.value(from: text) else {
          throw ConfigurationError("\(key.variable)='\(text)' is not \(key.expected) (\(key.name))")
        }
        entries.append(Entry(key: key, value: value, source: .environment(variable: key.variable)))
      } else if let file, let setting = file.settings.first(where: { $0.key == key }) {
        entries.append(
          Entry(key: key, value: setting.value, source: .file(path: file.path, line: setting.line)))
      } else {
        entries.append(Entry(key: key, value: key.defaultValue, source: .defaultValue))
      }
    }
    self.entries = entries
    filePath = file?.path
  }

  /// The entry of `key`.
  public subscript(key: ConfigurationKey) -> Entry {
    entries.first { $0.key == key }
      ?? Entry(key: key, value: key.defaultValue, source: .defaultValue)
  }

  /// A number key's value.
  public func number(_ key: ConfigurationKey) -> Int {
    if case .number(let number) = self[key].value { return number }
    if case .number(let number) = key.defaultValue { return number }
    return 0
  }

  /// A toggle key's value.
  public func toggle(_ key: ConfigurationKey) -> Bool {
    if case .toggle(let on) = self[key].value { return on }
    return key.defaultValue == .toggle(true)
  }

  /// A word key's value.
  public func word(_ key: ConfigurationKey) -> String {
    if case .word(let word) = self[key].value { return word }
    if case .word(let word) = key.defaultValue { return word }
    return ""
  }

  /// A seconds key's value.
  public func duration(_ key: ConfigurationKey) -> Duration {
    if case .duration(let duration) = self[key].value { return duration }
    if case .duration(let duration) = key.defaultValue { return duration }
    return .zero
  }

  /// A names key's value.
  public func names(_ key: ConfigurationKey) -> [String] {
    if case .names(let names) = self[key].value { return names }
    return []
  }
}

extension EffectiveConfiguration {
  /// Where the configuration file is, and whether someone named it: `$FERRY_CONFIG` (named),
  /// else `$XDG_CONFIG_HOME/ferry/config` (an absolute `XDG_CONFIG_HOME` only, as the XDG
  /// base directory specification says), else `~/.config/ferry/config`.
  public static func filePath(environment: [String: String]) -> (path: String, named: Bool) {
    if let path = environment["FERRY_CONFIG"], !path.isEmpty { return (path, true) }
    if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
      return (base + "/ferry/config", false)
    }
    let home =
      environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
    return (home + "/.config/ferry/config", false)
  }

  /// Reads the file (at `path`, or where ``filePath(environment:)`` says) and resolves every
  /// key against it, the environment and `flags`. The usual file may be missing; a file
  /// named by `path` or `$FERRY_CONFIG` must exist.
  ///
  /// - Throws: ``ConfigurationError`` for a missing named file, an unreadable or wrong file,
  ///   or a bad environment value.
  public static func load(
    path: String? = nil, environment: [String: String],
    flags: [ConfigurationKey: ConfigurationValue] = [:]
  ) throws(ConfigurationError) -> EffectiveConfiguration {
    let (found, named) = path.map { ($0, true) } ?? filePath(environment: environment)
    let file = try ConfigurationFile.load(path: found)
    if file == nil, named { throw ConfigurationError("cannot read \(found): no such file") }
    return try EffectiveConfiguration(file: file, environment: environment, flags: flags)
  }
}
