import Foundation
import NearMiss
import Yams

/// The configuration file: YAML, a key per line, sections for `history:` and `timeouts:`,
/// `#` comments (docs/CONFIGURATION.md).
///
/// ```yaml
/// capture-limit: 128      # MiB
/// history:
///   entries: 5000
///   ignore: [KeePassXC, Bitwarden]
/// ```
///
/// Reading it checks every key and value: an unknown key, a bad value or a key given twice is
/// a ``ConfigurationError`` naming the file, the line and the key.
public struct ConfigurationFile: Sendable {
  /// One key's setting, with the line it is on.
  public struct Setting: Sendable, Equatable {
    /// The key.
    public let key: ConfigurationKey
    /// The checked value.
    public let value: ConfigurationValue
    /// The line (from 1).
    public let line: Int
  }

  /// The file's path as given.
  public let path: String
  /// Its settings, in the file's order.
  public let settings: [Setting]

  /// The sections keys may be grouped under.
  static let sections: Set<String> = Set(ConfigurationKey.all.compactMap { $0.section })

  /// Reads a configuration from its text.
  ///
  /// - Throws: ``ConfigurationError`` for text that is not YAML, an unknown key, a bad value
  ///   or a key given twice.
  public init(path: String, text: String) throws(ConfigurationError) {
    self.path = path
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw Self.syntaxError(error, path: path, text: text)
    } catch {
      throw ConfigurationError("\(path): not YAML: \(error)")
    }
    var reader = SettingReader(path: path)
    switch root {
    case nil: break  // empty, or only comments
    case .mapping(let mapping)?: try reader.read(mapping, section: nil)
    case let node?:
      throw .file(
        path, line: node.mark?.line ?? 1,
        "expected 'key: value' lines (see `ferry config --template`)")
    }
    settings = reader.settings
  }

  /// Reads the file at `path`; `nil` when there is none.
  ///
  /// - Throws: ``ConfigurationError`` when it cannot be read or is wrong.
  public static func load(path: String) throws(ConfigurationError) -> ConfigurationFile? {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch CocoaError.fileReadNoSuchFile {
      return nil
    } catch {
      throw ConfigurationError(
        "cannot read \(path): \((error as NSError).localizedFailureReason ?? "\(error)")")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigurationError("\(path): not UTF-8 text")
    }
    return try ConfigurationFile(path: path, text: text)
  }

  /// A YAML syntax error as one line: path, line, column and libyaml's words.
  static func syntaxError(_ error: YamlError, path: String, text: String) -> ConfigurationError {
    switch error {
    case .duplicatedKeysInMapping(let duplicates, let context):
      // Yams names the mapping; the lines are those where the key starts one, after it.
      let key = duplicates.sorted().first ?? ""
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter
      { index, line in
        index + 1 >= context.mark.line && line.drop { $0 == " " }.hasPrefix("\(key):")
      }.map { $0.offset + 1 }
      guard lines.count >= 2 else {
        return .file(path, line: context.mark.line, "\(key) is given twice")
      }
      return .file(path, line: lines[1], "\(key) is given twice (first on line \(lines[0]))")
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return .file(path, line: mark.line, column: mark.column, "not valid YAML: \(problem)")
    case .reader(let problem, let offset?, let value, _):
      // libyaml's reader (a control character, bad UTF-8) gives a character offset; Yams's
      // own description of it quotes the line on a second line, with a caret on a third.
      let before = text.prefix(offset)
      let line = before.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
      let column = before.reversed().prefix { !$0.isNewline }.count + 1
      let character = value >= 0 ? String(format: " (U+%04X)", value) : ""
      return .file(path, line: line, column: column, "not valid YAML: \(problem)\(character)")
    default:
      return ConfigurationError("\(path): not valid YAML: \(error)")
    }
  }
}

/// Walks the YAML document, checking keys and values as it goes.
private struct SettingReader {
  let path: String
  var settings: [ConfigurationFile.Setting] = []

  mutating func read(_ mapping: Node.Mapping, section: String?) throws(ConfigurationError) {
    for (keyNode, valueNode) in mapping {
      let line = keyNode.mark?.line ?? 1
      guard case .scalar(let scalar) = keyNode else {
        throw .file(path, line: line, "a key must be a name")
      }
      let name = section.map { "\($0).\(scalar.string)" } ?? scalar.string
      if section == nil, ConfigurationFile.sections.contains(name) {
        if valueNode.isNull { continue }  // `history:` with every key under it commented out
        guard case .mapping(let inner) = valueNode else {
          throw .file(
            path, line: line, "\(name): expected a section of keys (\(Self.keys(in: name)))")
        }
        try read(inner, section: name)
        continue
      }
      guard let key = ConfigurationKey.named(name) else {
        throw .file(path, line: line, Self.unknown(name))
      }
      if let earlier = settings.first(where: { $0.key == key }) {
        throw .file(path, line: line, "\(name) is given twice (first on line \(earlier.line))")
      }
      settings.append(
        .init(key: key, value: try value(of: valueNode, for: key, line: line), line: line))
    }
  }

  func value(of node: Node, for key: ConfigurationKey, line: Int) throws(ConfigurationError)
    -> ConfigurationValue
  {
    let line = node.mark?.line ?? line
    switch node {
    case .scalar(let scalar):
      if node.isNull {
        throw .file(path, line: line, "\(key.name) has no value (expected \(key.expected))")
      }
      guard let value = key.value(from: scalar.string) else {
        throw .file(path, line: line, ConfigurationError.badValue(scalar.string, for: key))
      }
      return value
    case .sequence(let sequence) where key.kind == .names:
      var names: [String] = []
      for element in sequence {
        guard case .scalar(let scalar) = element, !scalar.string.isEmpty else {
          throw .file(
            path, line: element.mark?.line ?? line, "\(key.name): each entry must be a name")
        }
        names.append(scalar.string)
      }
      return .names(names)
    default:
      throw .file(
        path, line: line,
        "\(key.name): expected \(key.expected), not a \(node.isMapping ? "section" : "list")")
    }
  }

  /// "unknown key 'histroy.entries' (did you mean 'history.entries'?)"; a key put outside
  /// its section is pointed to it.
  static func unknown(_ name: String) -> String {
    let names = ConfigurationKey.all.map(\.name)
    if let meant = NearMiss.closest(to: name, among: names + ConfigurationFile.sections.sorted()) {
      return "unknown key '\(name)' (did you mean '\(meant)'?)"
    }
    if let sectioned = names.first(where: { $0.hasSuffix(".\(name)") }) {
      return
        "unknown key '\(name)' (did you mean '\(sectioned)', under \(sectioned.split(separator: ".")[0]):?)"
    }
    return "unknown key '\(name)' (`ferry config --template` lists every key)"
  }

  static func keys(in section: String) -> String {
    ConfigurationKey.all.filter { $0.section == section }.map(\.name).joined(separator: ", ")
  }
}

extension ConfigurationKey {
  /// The section a key is under (`history` for `history.entries`), if any.
  public var section: String? {
    guard let dot = name.firstIndex(of: ".") else { return nil }
    return String(name[..<dot])
  }
}

extension Node {
  fileprivate var isMapping: Bool { if case .mapping = self { true } else { false } }

  /// A plain scalar YAML reads as null: nothing, `~` or `null`.
  fileprivate var isNull: Bool {
    guard case .scalar(let scalar) = self, scalar.style == .plain else { return false }
    return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
  }
}
