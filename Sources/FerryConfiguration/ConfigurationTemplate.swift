/// A configuration file with every key at its default, commented out, each with what it does,
/// its flag and its environment variable: what `ferry config --template` prints.
public enum ConfigurationTemplate {
  /// The template's text.
  public static var text: String {
    var lines = [
      "# Ferry's configuration: ~/.config/ferry/config ($XDG_CONFIG_HOME/ferry/config, or $FERRY_CONFIG).",
      "# YAML. Every key is optional; a commented line shows the default. An environment",
      "# variable wins over this file, and a `ferry daemon` flag over both.",
      "# `ferry config` shows what is in effect and where each value came from.",
    ]
    var section: String?
    for key in ConfigurationKey.all {
      if key.section != section {
        section = key.section
        if let section { lines += ["", "\(section):"] }
      }
      let indent = key.section == nil ? "" : "  "
      let name = key.section.map { String(key.name.dropFirst($0.count + 1)) } ?? key.name
      lines.append("")
      lines.append("\(indent)# \(key.summary)")
      lines.append("\(indent)# \(key.expected); \(key.variable)\(key.flag.map { "; \($0)" } ?? "")")
      lines.append("\(indent)#\(name): \(example(key.defaultValue))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A value as YAML writes it.
  public static func example(_ value: ConfigurationValue) -> String {
    switch value {
    case .names(let names): "[" + names.joined(separator: ", ") + "]"
    default: value.description
    }
  }
}
