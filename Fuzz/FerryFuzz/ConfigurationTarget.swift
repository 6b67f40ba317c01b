import FerryConfiguration

/// The daemon's configuration file (YAML through libyaml): any text either reads to settings or
/// is refused with one line naming the file and a line of it, as the README promises every
/// bad input; settings name each key once, on a line the text has.
let configurationTarget = FuzzTarget(name: "configuration") { bytes in
  let text = String(decoding: bytes, as: UTF8.self)
  let path = "/fuzz/config"
  // Lines as libyaml counts them (YAML 1.1): a break is \n, \r, \r\n, NEL (U+0085) or a
  // line or paragraph separator (U+2028, U+2029); counting \r\n twice only lets more by.
  // One more for a mark just past the end.
  let breaks: Set<UInt32> = [0x0A, 0x0D, 0x85, 0x2028, 0x2029]
  let lineCount = text.unicodeScalars.reduce(1) { $0 + (breaks.contains($1.value) ? 1 : 0) } + 1
  do throws(ConfigurationError) {
    let file = try ConfigurationFile(path: path, text: text)
    var seen = Set<String>()
    for setting in file.settings {
      require(seen.insert(setting.key.name).inserted, "\(setting.key.name) was read twice")
      require(
        (1...lineCount).contains(setting.line),
        "\(setting.key.name) is on line \(setting.line) of \(lineCount)")
    }
  } catch {
    let line = error.message
    require(
      !line.contains(where: \.isNewline),
      "the error is more than one line: \(line.debugDescription)")
    require(line.hasPrefix(path + ":"), "the error does not name the file: \(line)")
    let number = line.dropFirst(path.count + 1).prefix { $0.isNumber }
    if let number = Int(number) {
      require(
        (1...lineCount).contains(number), "the error names line \(number) of \(lineCount): \(line)")
    }
  }
}
