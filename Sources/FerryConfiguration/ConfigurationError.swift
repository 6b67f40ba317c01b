/// A configuration that cannot be used: one line naming where (file and line, variable or
/// flag), the key, and what is wrong. The daemon does not start with one.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The line, without the program's name.
  public let message: String

  /// Creates an error from its line. A control character in it (a newline in a quoted key
  /// or value, say, or in a library's words) is written as an escape, so that the error is
  /// one line whatever the file held.
  public init(_ message: String) { self.message = Self.oneLine(message) }

  /// `text` with every control, line and paragraph separator character escaped as `\u{…}`.
  static func oneLine(_ text: String) -> String {
    var line = ""
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator:
        line += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default:
        line.unicodeScalars.append(scalar)
      }
    }
    return line
  }

  /// A problem at a line (and column) of a file.
  static func file(_ path: String, line: Int, column: Int? = nil, _ problem: String)
    -> ConfigurationError
  {
    ConfigurationError("\(path):\(line)\(column.map { ":\($0)" } ?? ""): \(problem)")
  }

  /// A value a key cannot take.
  static func badValue(_ text: String, for key: ConfigurationKey) -> String {
    "\(key.name): '\(text)' is not \(key.expected)"
  }

  /// The line.
  public var description: String { message }
}
