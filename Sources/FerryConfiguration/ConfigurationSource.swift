/// Where a value came from, from the weakest to the strongest: a default, the file, the
/// environment, a flag.
public enum ConfigurationSource: Sendable, Equatable, CustomStringConvertible {
  /// Nothing set the key.
  case defaultValue
  /// A line of the configuration file.
  case file(path: String, line: Int)
  /// An environment variable.
  case environment(variable: String)
  /// A `ferry daemon` flag.
  case flag(String)

  /// "default", "~/.config/ferry/config:3", "FERRY_HISTORY_ENTRIES", "--history-entries".
  public var description: String {
    switch self {
    case .defaultValue: "default"
    case .file(let path, let line): "\(path):\(line)"
    case .environment(let variable): "environment \(variable)"
    case .flag(let flag): "flag \(flag)"
    }
  }
}
