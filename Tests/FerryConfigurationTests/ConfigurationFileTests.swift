import FerryConfiguration
import Testing

/// The file: every key read with its line, and every mistake one line naming file, line and key.
@Suite struct ConfigurationFileTests {
  @Test func keysAreReadWithTheirLinesFromSectionsAndTheTopLevel() throws {
    let file = try ConfigurationFile(
      path: "config",
      text: """
        # a comment
        capture-limit: 1_024   # MiB
        log-level: Debug
        history:
          entries: 50
          primary: on
          ignore: [KeePassXC, "Bitwarden"]
        timeouts:
          capture: 0.25
        """)
    let found = Dictionary(
      uniqueKeysWithValues: file.settings.map { ($0.key.name, ($0.value, $0.line)) })
    #expect(found["capture-limit"]?.0 == .number(1024) && found["capture-limit"]?.1 == 2)
    #expect(found["log-level"]?.0 == .word("debug"))
    #expect(found["history.entries"]?.0 == .number(50) && found["history.entries"]?.1 == 5)
    #expect(found["history.primary"]?.0 == .toggle(true))
    #expect(
      found["history.ignore"]?.0 == .names(["KeePassXC", "Bitwarden"])
        && found["history.ignore"]?.1 == 7)
    #expect(found["timeouts.capture"]?.0 == .duration(.milliseconds(250)))
    #expect(file.settings.count == 6)
  }

  @Test(arguments: [
    (
      "history:\n  entires: 5\n",
      "config:2: unknown key 'history.entires' (did you mean 'history.entries'?)"
    ),
    (
      "entries: 5\n",
      "config:1: unknown key 'entries' (did you mean 'history.entries', under history:?)"
    ),
    (
      "colour: blue\n", "config:1: unknown key 'colour' (`ferry config --template` lists every key)"
    ),
    (
      "\nhistory:\n  entries: lots\n",
      "config:3: history.entries: 'lots' is not a whole number of entries, from 1 to 100000000"
    ),
    (
      "history:\n  entries: 0\n",
      "config:2: history.entries: '0' is not a whole number of entries, from 1 to 100000000"
    ),
    (
      "log-level: loud\n",
      "config:1: log-level: 'loud' is not one of trace, debug, info, notice, warning, error, critical"
    ),
    (
      "timeouts:\n  serve: -1\n",
      "config:2: timeouts.serve: '-1' is not a number of seconds, more than 0 and at most 3600"
    ),
    ("history:\n  enabled: maybe\n", "config:2: history.enabled: 'maybe' is not true or false"),
    (
      "capture-limit:\n",
      "config:1: capture-limit has no value (expected a whole number of MiB, from 0 to 16777216)"
    ),
    (
      "capture-limit: [1, 2]\n",
      "config:1: capture-limit: expected a whole number of MiB, from 0 to 16777216, not a list"
    ),
    (
      "history: 5\n",
      "config:1: history: expected a section of keys (history.enabled, history.primary, history.entries, history.size, history.item-size, history.ignore)"
    ),
    ("log-level: info\nlog-level: debug\n", "config:2: log-level is given twice (first on line 1)"),
    ("- capture-limit\n", "config:1: expected 'key: value' lines (see `ferry config --template`)"),
  ])
  func aMistakeIsOneLineNamingTheLineAndTheKey(text: String, message: String) {
    #expect(throws: ConfigurationError(message)) {
      try ConfigurationFile(path: "config", text: text)
    }
  }

  @Test func textThatIsNotYAMLNamesItsLineAndColumn() throws {
    let error = #expect(throws: ConfigurationError.self) {
      try ConfigurationFile(
        path: "/home/u/.config/ferry/config", text: "capture-limit: 64\nhistory:\n  entries: [1\n")
    }
    let message = try #require(error?.message)
    #expect(message.hasPrefix("/home/u/.config/ferry/config:"), "\(message)")
    #expect(message.contains("not valid YAML"), "\(message)")
    #expect(!message.contains("\n"))
  }

  /// Found by the `configuration` fuzz target (issue 17): a control character made Yams's
  /// error three lines (the line quoted, a caret under it), and a newline inside a quoted key
  /// or value went into the message as it was. Every message is one line now.
  @Test(
    arguments: [
      (
        "capture-limit: 64\nkey\u{13}: 1\n",
        "config:2:4: not valid YAML: control characters are not allowed (U+0013)"
      ),
      (
        "\"log\\nlevel\": info\n",
        "config:1: unknown key 'log\\u{A}level' (did you mean 'log-level'?)"
      ),
      (
        "log-level: \"lo\\nud\"\n",
        "config:1: log-level: 'lo\\u{A}ud' is not one of trace, debug, info, notice, warning, error, critical"
      ),
      ("history:\n  \"a\\u2028b\": 1\n", nil),
    ] as [(String, String?)])
  func aMistakeWithAControlCharacterIsStillOneLine(text: String, message: String?) throws {
    let error = #expect(throws: ConfigurationError.self) {
      try ConfigurationFile(path: "config", text: text)
    }
    let line = try #require(error?.message)
    let breaks: [Unicode.GeneralCategory] = [.control, .lineSeparator, .paragraphSeparator]
    #expect(
      !line.unicodeScalars.contains { breaks.contains($0.properties.generalCategory) },
      "\(line.debugDescription)")
    if let message { #expect(line == message) }
  }

  /// Issue 36: 10,000 levels of `[` overflowed the stack of the composer (libyaml sets no
  /// limit); a number past what the daemon computes with trapped it at start.
  @Test(
    arguments: [
      (
        "capture-limit: " + String(repeating: "[", count: 10_000),
        "config:1:80: not valid YAML: nested more than 64 levels deep"
      ),
      (
        "history:\n"
          + (1...80).map { String(repeating: "  ", count: $0) + "a\($0):" }.joined(separator: "\n")
          + " 1\n",
        nil
      ),
      (
        "images:\n  pixel-limit: 9223372036855\n",
        "config:2: images.pixel-limit: '9223372036855' is not a whole number of megapixels, from 1 to 1000000"
      ),
      (
        "capture-limit: 8796093022208\n",
        "config:1: capture-limit: '8796093022208' is not a whole number of MiB, from 0 to 16777216"
      ),
    ] as [(String, String?)])
  func aFileTooDeepOrANumberTooLargeIsOneLine(text: String, message: String?) throws {
    let error = #expect(throws: ConfigurationError.self) {
      try ConfigurationFile(path: "config", text: text)
    }
    let line = try #require(error?.message)
    #expect(!line.contains("\n"))
    if let message {
      #expect(line == message)
    } else {
      #expect(line.contains("nested more than 64"))
    }
  }

  @Test func anEmptyFileOrOneOfCommentsSetsNothing() throws {
    #expect(try ConfigurationFile(path: "c", text: "").settings.isEmpty)
    #expect(try ConfigurationFile(path: "c", text: "# nothing yet\n\n").settings.isEmpty)
  }

  @Test func theTemplateIsAValidFileThatSetsNothingAndNamesEveryKey() throws {
    let template = ConfigurationTemplate.text
    #expect(try ConfigurationFile(path: "template", text: template).settings.isEmpty)
    for key in ConfigurationKey.all {
      #expect(template.contains(key.variable), "\(key.name)")
      let leaf = key.name.split(separator: ".").last.map(String.init) ?? key.name
      #expect(template.contains("#\(leaf): "), "\(key.name)")
    }
    // Uncommenting every line gives the defaults back.
    let uncommented = template.split(separator: "\n", omittingEmptySubsequences: false).map {
      line -> Substring in
      guard let hash = line.firstIndex(of: "#"), line[..<hash].allSatisfy({ $0 == " " }),
        line[line.index(after: hash)...].contains(": ") || line.hasSuffix(":")
      else { return line }
      let rest = line[line.index(after: hash)...]
      return rest.first == " " ? line : line[..<hash] + rest
    }.joined(separator: "\n")
    let file = try ConfigurationFile(path: "template", text: uncommented)
    #expect(file.settings.map(\.key) == ConfigurationKey.all)
    for setting in file.settings {
      #expect(setting.value == setting.key.defaultValue, "\(setting.key.name)")
    }
  }
}
