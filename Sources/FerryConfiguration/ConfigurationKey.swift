/// One setting: its name in the configuration file, its environment variable, its daemon
/// flag, what values it takes and its default.
public struct ConfigurationKey: Sendable, Hashable {
  /// What values a key takes, and how they are read from text.
  public enum Kind: Sendable, Hashable {
    /// A whole number from `minimum` to `maximum`; `unit` names what it counts ("MiB",
    /// "entries"). The maximum keeps what the daemon computes from it (MiB in bytes,
    /// megapixels in pixels) inside `Int`: `images.pixel-limit: 9223372036855` trapped the
    /// daemon at start before there was one.
    case number(minimum: Int, maximum: Int, unit: String)
    /// `true`/`false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
    case toggle
    /// One of a fixed list of words.
    case choice([String])
    /// Seconds, more than zero and at most an hour; fractions allowed.
    case seconds
    /// Names: a list in the file, comma-separated in the environment.
    case names
  }

  /// The name in the configuration file, dotted for a section (`history.entries` is
  /// `entries` under `history:`).
  public let name: String
  /// The environment variable that overrides the file.
  public let variable: String
  /// The `ferry daemon` flag that overrides both, if there is one.
  public let flag: String?
  /// What values the key takes.
  public let kind: Kind
  /// The value when nothing sets it.
  public let defaultValue: ConfigurationValue
  /// What the key does, in one line.
  public let summary: String

  /// The value a text stands for, or `nil` when the text is not one of the kind's values.
  public func value(from text: String) -> ConfigurationValue? {
    let trimmed = text.trimmingSpaces
    switch kind {
    case .number(let minimum, let maximum, _):
      guard let number = Int(trimmed.replacingUnderscores), number >= minimum, number <= maximum
      else { return nil }
      return .number(number)
    case .toggle:
      switch trimmed.lowercased() {
      case "true", "on", "yes", "1": return .toggle(true)
      case "false", "off", "no", "0": return .toggle(false)
      default: return nil
      }
    case .choice(let words):
      let word = trimmed.lowercased()
      return words.contains(word) ? .word(word) : nil
    case .seconds:
      guard let seconds = Double(trimmed), seconds > 0, seconds <= 3600 else { return nil }
      return .duration(.milliseconds(Int64((seconds * 1000).rounded())))
    case .names:
      return .names(
        trimmed.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty })
    }
  }

  /// The key's values in words, for an error line: "a whole number of MiB, 0 or more".
  public var expected: String {
    switch kind {
    case .number(let minimum, let maximum, let unit):
      "a whole number of \(unit), from \(minimum) to \(maximum)"
    case .toggle: "true or false"
    case .choice(let words): "one of " + words.joined(separator: ", ")
    case .seconds: "a number of seconds, more than 0 and at most 3600"
    case .names: "a list of names"
    }
  }
}

extension String {
  var trimmingSpaces: String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }

  /// `1_000` as `1000`, as YAML and TOML write large numbers.
  var replacingUnderscores: String { contains("_") ? filter { $0 != "_" } : self }
}

extension ConfigurationKey {
  /// Keys are the same when their names are.
  public static func == (lhs: ConfigurationKey, rhs: ConfigurationKey) -> Bool {
    lhs.name == rhs.name
  }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
