#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The XDG base directories and locale settings that decide where types come from.
enum Environment {
  static func value(_ name: String) -> String? {
    guard let pointer = getenv(name) else { return nil }
    let value = String(cString: pointer)
    return value.isEmpty ? nil : value
  }

  /// `$XDG_DATA_HOME`, or `~/.local/share`.
  static var dataHome: String? {
    if let home = value("XDG_DATA_HOME") { return home }
    return value("HOME").map { $0 + "/.local/share" }
  }

  /// The entries of `$XDG_DATA_DIRS`, or `/usr/local/share` and `/usr/share`.
  static var dataDirectories: [String] {
    let list = value("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share"
    return list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
  }

  /// The data directories in precedence order: the user's first, then the system's.
  static var dataSearchPath: [String] {
    (dataHome.map { [$0] } ?? []) + dataDirectories
  }

  /// The languages to localize messages into, most wanted first (`de_AT`, then `de`), from
  /// `LC_ALL`, `LC_MESSAGES` or `LANG`; empty for the C locale.
  static var messageLanguages: [String] {
    guard let locale = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG") else { return [] }
    var name = Substring(locale)
    if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
    if let at = name.firstIndex(of: "@") { name = name[..<at] }
    if name.isEmpty || name == "C" || name == "POSIX" { return [] }
    var languages = [String(name)]
    if let underscore = name.firstIndex(of: "_") { languages.append(String(name[..<underscore])) }
    return languages
  }
}
