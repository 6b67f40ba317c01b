/// A configuration value, already checked against its key's ``ConfigurationKey/Kind``.
public enum ConfigurationValue: Sendable, Equatable, CustomStringConvertible {
  /// A whole number (a count, or MiB).
  case number(Int)
  /// On or off.
  case toggle(Bool)
  /// One word of a fixed set.
  case word(String)
  /// A duration.
  case duration(Duration)
  /// A list of names.
  case names([String])

  /// The value as written in a file or the environment.
  public var description: String {
    switch self {
    case .number(let number): "\(number)"
    case .toggle(let on): on ? "true" : "false"
    case .word(let word): word
    case .duration(let duration): Self.seconds(duration)
    case .names(let names): names.joined(separator: ",")
    }
  }

  /// Seconds, without a trailing `.0` for whole ones.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds != 0 else { return "\(seconds)" }
    let milliseconds = Int64((Double(attoseconds) / 1e15).rounded())
    var fraction = String(milliseconds)
    fraction = String(repeating: "0", count: max(0, 3 - fraction.count)) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(seconds).\(fraction)"
  }
}
