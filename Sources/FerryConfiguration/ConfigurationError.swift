/// A configuration that cannot be used: one line naming where (file and line, variable or
/// flag), the key, and what is wrong. The daemon does not start with one.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The line, without the program's name.
  public let message: String

  /// Creates an error from its line.
  public init(_ message: String) { self.message = message }

  /// A problem at a line (and column) of a file.
  static func file(_ path: String, line: Int, column: Int? = nil, _ problem: String) -> ConfigurationError {
    ConfigurationError("\(path):\(line)\(column.map { ":\($0)" } ?? ""): \(problem)")
  }

  /// A value a key cannot take.
  static func badValue(_ text: String, for key: ConfigurationKey) -> String {
    "\(key.name): '\(text)' is not \(key.expected)"
  }

  /// The line.
  public var description: String { message }
}
