import ArgumentParser
import FerryConfiguration

extension ArgumentHelp {
  /// A daemon flag's help, from its configuration key: what it does, the key in the file, the
  /// environment variable and the default, so `--help`, the man page and the file never
  /// disagree.
  init(_ key: ConfigurationKey, valueName: String? = nil) {
    let fallback =
      key.defaultValue == .names([]) ? "none" : ConfigurationTemplate.example(key.defaultValue)
    self.init(
      "\(key.summary) (\(key.name) in the file, \(key.variable); default \(fallback))",
      valueName: valueName)
  }
}
