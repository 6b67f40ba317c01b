import FerrySystem
import NearMiss

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
    let root: YAMLNode?
    do {
      root = try YAMLNode.compose(text)
    } catch {
      throw Self.syntaxError(error, path: path, text: text)
    }
    var reader = SettingReader(path: path)
    switch root {
    case nil: break  // empty, or only comments
    case .mapping(let mapping, _)?: try reader.read(mapping, section: nil)
    case let node?:
      throw .file(
        path, line: node.mark.line, "expected 'key: value' lines (see `ferry config --template`)")
    }
    settings = reader.settings
  }

  /// Reads the file at `path`; `nil` when there is none.
  ///
  /// - Throws: ``ConfigurationError`` when it cannot be read or is wrong.
  public static func load(path: String) throws(ConfigurationError) -> ConfigurationFile? {
    let bytes: [UInt8]
    do {
      let file = try FileDescriptor.open(atPath: path, .readOnly)
      defer { try? file.close() }
      var read: [UInt8] = []
      try file.readChunks(path: path, chunkSize: 16 << 10) { read.append(contentsOf: $0) }
      bytes = read
    } catch let error as FileError where error.code == .noSuchFileOrDirectory {
      return nil
    } catch let error as FileError {
      throw ConfigurationError("cannot read \(path): \(error.code)")
    } catch {
      throw ConfigurationError("cannot read \(path): \(error)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ConfigurationError("\(path): not UTF-8 text")
    }
    return try ConfigurationFile(path: path, text: text)
  }

  /// A YAML syntax error as one line: path, line, column and libyaml's words.
  static func syntaxError(_ error: YAMLError, path: String, text: String) -> ConfigurationError {
    switch error {
    case .duplicateKey(let key, let first, let second):
      return .file(path, line: second.line, "\(key) is given twice (first on line \(first.line))")
    case .syntax(let problem, let mark):
      return .file(path, line: mark.line, column: mark.column, "not valid YAML: \(problem)")
    case .reader(let problem, let offset?, let value):
      // libyaml's reader (a control character, bad UTF-8) gives an offset, not a line.
      let before = text.prefix(offset)
      let line = before.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
      let column = before.reversed().prefix { !$0.isNewline }.count + 1
      let character = value >= 0 ? " (U+\(hex4(value)))" : ""
      return .file(path, line: line, column: column, "not valid YAML: \(problem)\(character)")
    case .reader(let problem, nil, _):
      return ConfigurationError("\(path): not valid YAML: \(problem)")
    case .memory:
      return ConfigurationError("\(path): not valid YAML: out of memory")
    }
  }

  /// `value` in uppercase hexadecimal, at least four digits (`0013`).
  static func hex4(_ value: Int32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Walks the YAML document, checking keys and values as it goes.
private struct SettingReader {
  let path: String
  var settings: [ConfigurationFile.Setting] = []

  mutating func read(_ mapping: [(key: YAMLNode, value: YAMLNode)], section: String?)
    throws(ConfigurationError)
  {
    for (keyNode, valueNode) in mapping {
      let line = keyNode.mark.line
      guard case .scalar(let key, _, _) = keyNode else {
        throw .file(path, line: line, "a key must be a name")
      }
      let name = section.map { "\($0).\(key)" } ?? key
      if section == nil, ConfigurationFile.sections.contains(name) {
        if valueNode.isNull { continue }  // `history:` with every key under it commented out
        guard case .mapping(let inner, _) = valueNode else {
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

  func value(of node: YAMLNode, for key: ConfigurationKey, line: Int) throws(ConfigurationError)
    -> ConfigurationValue
  {
    let line = node.mark.line
    switch node {
    case .scalar(let text, _, _):
      if node.isNull {
        throw .file(path, line: line, "\(key.name) has no value (expected \(key.expected))")
      }
      guard let value = key.value(from: text) else {
        throw .file(path, line: line, ConfigurationError.badValue(text, for: key))
      }
      return value
    case .sequence(let sequence, _) where key.kind == .names:
      var names: [String] = []
      for element in sequence {
        guard case .scalar(let name, _, _) = element, !name.isEmpty else {
          throw .file(path, line: element.mark.line, "\(key.name): each entry must be a name")
        }
        names.append(name)
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

extension YAMLNode {
  fileprivate var isMapping: Bool { if case .mapping = self { true } else { false } }

  /// A plain scalar YAML reads as null: nothing, `~` or `null`.
  fileprivate var isNull: Bool {
    guard case .scalar(let text, plain: true, _) = self else { return false }
    return ["", "~", "null", "Null", "NULL"].contains(text)
  }
}
