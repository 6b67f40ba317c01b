import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// `Scripts/install` and `Scripts/uninstall` into a private prefix, from the debug build:
/// stripped tools, man pages that say what `--help` says, completions bash can use, the user
/// unit and the autostart file; and uninstall removes exactly that.
@Suite(.skipsWithoutPeers) struct InstallTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The options a `--help` text lists (`--type`, `-pboard`, …), without `-h`.
  static func options(inHelp help: String) -> Set<String> {
    var found = Set<String>()
    for line in help.split(separator: "\n") {
      // An option's line is indented two spaces; a description's continuation, more.
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("-"), line.count - trimmed.count == 2 else { continue }
      for word in trimmed.split(separator: " ").prefix(3) {
        // `--history/--no-history` is two options.
        for part in word.trimmingCharacters(in: CharacterSet(charactersIn: ",")).split(
          separator: "/")
        {
          if part.hasPrefix("-"), part != "-h", part.count > 2 { found.insert(String(part)) }
        }
      }
    }
    return found
  }

  /// What bash completes for `words` (the last one being completed), with the installed
  /// completion script of `words[0]`.
  static func bashCompletions(_ fixture: BrokerFixture, script: URL, _ words: [String]) async throws
    -> [String]
  {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let line = words.joined(separator: " ")
    let command = """
      source '\(script.path)'
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
      _\(words[0]) '\(words[0])' '\(words.last!)' '\(words[words.count - 2])'
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    return try await fixture.run(["bash", "-c", command]).stdoutText.split(separator: "\n").map(
      String.init)
  }

  /// What `systemctl --user start ferry` does, done by hand (no user manager runs here):
  /// the unit's `ExecStart` with `NOTIFY_SOCKET` set, on a private display, until `READY=1`;
  /// then the installed `pbcopy` copies and `xclip` and the installed `pbpaste` paste it, and
  /// `man pbpaste` shows the installed page. The autostart file starts the same command.
  static func theInstalledServiceServes(
    unit: String, autostart: String, prefix: URL, fixture: BrokerFixture
  ) async throws {
    let execStart = try #require(
      unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }?.dropFirst(
        "ExecStart=".count))
    let exec = try #require(
      autostart.split(separator: "\n").first { $0.hasPrefix("Exec=") }?.dropFirst("Exec=".count))
    #expect(execStart == exec, "the unit and the autostart file start the same command")
    let xvfb = try await XvfbServer.dedicated("installed")
    // The history is the user's data, which uninstall leaves: kept apart from the prefix here.
    let environment = fixture.environment.merging([
      "XDG_DATA_HOME": fixture.runtime.appendingPathComponent("data").path
    ]) { $1 }
    let (listener, notify) = try await ServiceTests.notificationListener(fixture)
    defer { _ = listener.kill() }
    let daemon = try PeerProcess(
      execStart.split(separator: " ").map(String.init), display: xvfb.name,
      environment: environment.merging(["NOTIFY_SOCKET": notify]) { $1 })
    defer { _ = daemon.kill() }
    #expect(
      await waitForOutput(listener, "READY=1"), "\(listener.outputSoFar) \(daemon.errorSoFar)")
    let bin = prefix.appendingPathComponent("bin")
    func installed(_ arguments: [String], input: Data? = nil) async throws -> PeerProcess.Result {
      let display = xvfb.name
      return try await DetachedThread.run {
        try PeerProcess.run(arguments, display: display, input: input, environment: environment)
      }
    }
    #expect(
      try await installed(
        [bin.appendingPathComponent("pbcopy").path], input: Data("installed".utf8)
      ).status == 0)
    #expect(
      try await installed(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "installed")
    #expect(
      try await installed([bin.appendingPathComponent("pbpaste").path]).stdoutText == "installed")
    let page = try await installed([
      "man", "--manpath", prefix.appendingPathComponent("share/man").path, "-P", "cat", "pbpaste",
    ])
    #expect(
      page.status == 0 && page.stdoutText.contains("pbpaste"), "man pbpaste: \(page.stderrText)")
  }

  @Test func installPutsEverythingInPlaceAndUninstallRemovesExactlyThat() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    let home = fixture.runtime
    let prefix = home.appendingPathComponent(".local")
    let binaries = URL(fileURLWithPath: try Tools.path("ferry")).deletingLastPathComponent()
    guard
      FileManager.default.isExecutableFile(
        atPath: binaries.appendingPathComponent("generate-manual").path)
    else {
      throw MissingBuildProduct(name: "generate-manual")
    }
    let install = try await fixture.run(
      [
        Self.repository.appendingPathComponent("Scripts/install").path, "--prefix", prefix.path,
        "--from", binaries.path,
      ],
      timeout: .seconds(120))
    try #require(install.status == 0, "\(install.stderrText)")
    #expect(install.stdoutText.contains("(stripped)"), "\(install.stdoutText)")

    // One binary: ferry, stripped; pbcopy and pbpaste are links to it, which it runs as.
    let ferry = prefix.appendingPathComponent("bin/ferry")
    #expect(FileManager.default.isExecutableFile(atPath: ferry.path))
    let size = try FileManager.default.attributesOfItem(atPath: ferry.path)[.size] as? Int ?? 0
    let built =
      try FileManager.default.attributesOfItem(
        atPath: binaries.appendingPathComponent("ferry").path)[.size] as? Int ?? 0
    #expect(size > 0 && size < built, "ferry is stripped: \(size) of \(built) bytes")
    for tool in ["pbcopy", "pbpaste"] {
      let installed = prefix.appendingPathComponent("bin/\(tool)")
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: installed.path) == "ferry",
        "\(tool) links to ferry")
      #expect(FileManager.default.isExecutableFile(atPath: installed.path))
    }

    // The pages say what --help says: every option, for each tool and each ferry subcommand.
    let pages = prefix.appendingPathComponent("share/man/man1")
    var commands: [(page: String, arguments: [String])] = [
      ("pbcopy.1", ["pbcopy"]), ("pbpaste.1", ["pbpaste"]), ("ferry.1", ["ferry"]),
    ]
    let ferryHelp = try await fixture.run(["ferry", "--help"]).stdoutText
    // A subcommand's line is indented two spaces; its description's continuations, more.
    let subcommands = (ferryHelp.components(separatedBy: "SUBCOMMANDS:").last ?? "").split(
      separator: "\n"
    )
    .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
    .compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(subcommands.contains("save") && subcommands.contains("daemon"), "\(subcommands)")
    for subcommand in subcommands where subcommand != "See" && subcommand != "help" {
      commands.append(("ferry.\(subcommand).1", ["ferry", subcommand]))
    }
    for (page, arguments) in commands {
      let text = try String(contentsOf: pages.appendingPathComponent(page), encoding: .utf8)
      let help = try await fixture.run(arguments + ["--help"]).stdoutText
      for option in Self.options(inHelp: help) {
        // mdoc writes a leading dash as \-; a long option's name follows its dashes.
        let name = option.drop { $0 == "-" }
        #expect(
          text.contains(String(name)),
          "\(page) names \(option), as \(arguments.joined(separator: " ")) --help does")
      }
    }

    let completions = prefix.appendingPathComponent("share/bash-completion/completions")
    #expect(
      try await Self.bashCompletions(
        fixture, script: completions.appendingPathComponent("ferry"), ["ferry", "sa"]) == ["save"])
    #expect(
      try await Self.bashCompletions(
        fixture, script: completions.appendingPathComponent("pbpaste"), ["pbpaste", "--li"])
        == ["--list-types"])
    for file in ["share/zsh/site-functions/_ferry", "share/fish/vendor_completions.d/pbcopy.fish"] {
      #expect(
        FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
    }

    let unit = try String(
      contentsOf: prefix.appendingPathComponent("share/systemd/user/ferry.service"), encoding: .utf8
    )
    #expect(unit.contains("ExecStart=\(prefix.path)/bin/ferry daemon\n"), "\(unit)")
    let autostart = try String(
      contentsOf: home.appendingPathComponent(".config/autostart/ferry.desktop"), encoding: .utf8)
    #expect(autostart.contains("Exec=\(prefix.path)/bin/ferry daemon\n"))

    try await Self.theInstalledServiceServes(
      unit: unit, autostart: autostart, prefix: prefix, fixture: fixture)

    let manifest = try String(
      contentsOf: prefix.appendingPathComponent("share/ferry/install-manifest"), encoding: .utf8
    )
    .split(separator: "\n").map(String.init)
    let uninstall = try await fixture.run([
      Self.repository.appendingPathComponent("Scripts/uninstall").path, "--prefix", prefix.path,
    ])
    #expect(uninstall.status == 0, "\(uninstall.stderrText)")
    for file in manifest {
      #expect(!FileManager.default.fileExists(atPath: file), "\(file) is removed")
    }
    let left = try await fixture.run([
      "find", prefix.path, home.appendingPathComponent(".config").path, "-type", "f",
    ])
    #expect(left.stdoutText.isEmpty, "nothing else was installed: \(left.stdoutText)")
  }
}
