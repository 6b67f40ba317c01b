import FerryProtocol
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// `ferry history` against a headless `ferry daemon` whose history lives under the
/// fixture's private HOME: copies by real processes, read back by real processes.
@Suite(.skipsWithoutPeers) struct HistoryCommandTests {
  /// The entries `ferry history list --json` prints.
  static func entries(_ fixture: BrokerFixture, _ arguments: [String] = []) async throws
    -> [HistoryEntrySummary]
  {
    let list = try await fixture.run(["ferry", "history", "list", "--json"] + arguments)
    #expect(list.status == 0, "\(list.stderrText)")
    return try JSONDecoder().decode([HistoryEntrySummary].self, from: list.stdout)
  }

  /// Waits until the history holds `count` entries (recording runs behind the copy), and
  /// returns them.
  static func waitForEntries(_ fixture: BrokerFixture, count: Int) async throws
    -> [HistoryEntrySummary]
  {
    var entries: [HistoryEntrySummary] = []
    let recorded = await Deadline.wait(for: .seconds(20)) {
      entries = (try? await Self.entries(fixture)) ?? []
      return entries.count == count
    }
    #expect(recorded, "the history holds \(entries.count) entries, not \(count): \(entries)")
    return entries
  }

  /// Copies `text` with pbcopy and waits for its entry.
  @discardableResult
  static func copyText(_ text: String, _ fixture: BrokerFixture, count: Int) async throws
    -> HistoryEntrySummary
  {
    let copy = try await fixture.run(["pbcopy"], input: Data(text.utf8))
    #expect(copy.status == 0, "\(copy.stderrText)")
    return try #require(try await waitForEntries(fixture, count: count).first)
  }

  /// Writes `contents` to a file of the fixture's.
  static func file(_ name: String, _ contents: Data, _ fixture: BrokerFixture) throws -> String {
    let url = fixture.runtime.appendingPathComponent(name)
    try contents.write(to: url)
    return url.path
  }

  @Test func copiesAreListedNewestFirstWithTheirTypesInOrderAndSource() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    try await Self.copyText("first copy", fixture, count: 1)
    let html = try Self.file("a.html", Data("<b>second</b> copy".utf8), fixture)
    let text = try Self.file("a.txt", Data("second copy".utf8), fixture)
    #expect(
      try await fixture.run(["ferry", "copy", "--type", "text/html", html, "--type", "text", text])
        .status == 0)
    let entries = try await Self.waitForEntries(fixture, count: 2)
    #expect(
      entries.map(\.types) == [
        ["public.html", "public.utf8-plain-text"], ["public.utf8-plain-text"],
      ])
    #expect(entries.map(\.source) == ["ferry copy", "pbcopy"])
    #expect(entries.map(\.preview) == ["<b>second</b> copy", "first copy"])
    #expect(entries.map(\.pasteboard) == ["general", "general"])
    #expect(entries[0].id > entries[1].id && entries[0].date >= entries[1].date)
    #expect(entries[0].size == 29 && !entries[0].pinned)

    let lines = try await fixture.run(["ferry", "history"]).stdoutText.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("\(entries[0].id) "))
    #expect(lines[0].contains("s ago") && lines[0].contains("public.html, public.utf8-plain-text"))
    #expect(lines[0].hasSuffix("<b>second</b> copy"))
    let limited = try await Self.entries(fixture, ["--limit", "1"])
    #expect(limited.map(\.id) == [entries[0].id])
    #expect(try await Self.entries(fixture, ["-pboard", "primary"]).isEmpty)
    try await fixture.stop()
  }

  @Test func searchFindsAWordOfATextRepresentation() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let fox = try await Self.copyText("The quick brown fox", fixture, count: 1)
    try await Self.copyText("a lazy dog\nsleeps", fixture, count: 2)
    let search = try await fixture.run(["ferry", "history", "search", "--json", "BROWN"])
    #expect(
      try JSONDecoder().decode([HistoryEntrySummary].self, from: search.stdout).map(\.id) == [
        fox.id
      ])
    let prefixes = try await fixture.run(["ferry", "history", "search", "qui", "bro"])
    #expect(
      prefixes.stdoutText.split(separator: "\n").map { $0.split(separator: " ")[0] } == [
        "\(fox.id)"
      ])
    let none = try await fixture.run(["ferry", "history", "search", "--json", "zebra"])
    #expect(none.status == 0 && none.stdoutText == "[]\n")
    try await fixture.stop()
  }

  @Test func showWritesEachRepresentationsExactBytesAndConversions() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let declaration = try RegistrationPersistenceTests.writeDeclaration(
      in: fixture.runtime.appendingPathComponent("declarations"))
    #expect(try await fixture.run(["ferry", "register", declaration.path]).status == 0)
    let card = #"{"name":"Ana"}"#
    let image = Data((0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })  // past 64 KiB: a blob file
    let cardFile = try Self.file("card.json", Data(card.utf8), fixture)
    let imageFile = try Self.file("image.png", image, fixture)
    let copy = try await fixture.run([
      "ferry", "copy", "--type", "org.ferry.test.card", cardFile, "--type", "png", imageFile,
    ])
    #expect(copy.status == 0, "\(copy.stderrText)")
    let entry = try #require(try await Self.waitForEntries(fixture, count: 1).first)
    #expect(entry.types == ["org.ferry.test.card", "public.png"])
    let id = "\(entry.id)"

    #expect(
      try await fixture.run(["ferry", "history", "show", id]).stdoutText == card,
      "the first representation")
    #expect(
      try await fixture.run(["ferry", "history", "show", id, "--type", "org.ferry.test.card"])
        .stdoutText == card)
    #expect(
      try await fixture.run(["ferry", "history", "show", id, "--type", "image/png"]).stdout == image
    )
    let text = try await fixture.run(["ferry", "history", "show", id, "--type", "text"])
    #expect(text.stdoutText == "Ana", "the registered conversion: \(text.stderrText)")
    let html = try await fixture.run([
      "ferry", "history", "show", id, "--type", "public.html", "--type", "text",
    ])
    #expect(html.stdoutText == "<b>\(card)</b>", "the first of the types asked that converts")
    let json = try await fixture.run(["ferry", "history", "show", id, "--type", "text", "--json"])
    #expect(
      json.stdoutText
        == #"{"id":\#(id),"requested":"public.utf8-plain-text","text":"Ana","type":"public.utf8-plain-text"}"#
        + "\n")
    // A type the entry neither stores nor converts to (its PNG would convert to JPEG).
    let missing = try await fixture.run(["ferry", "history", "show", id, "--type", "com.adobe.pdf"])
    #expect(missing.status == 1 && missing.stderrText.contains("com.adobe.pdf"))
    try await fixture.stop()
  }

  @Test func restoreMakesAnEarlierEntryTheCopyWithAllItsTypes() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let html = try Self.file("a.html", Data("<i>earlier</i>".utf8), fixture)
    let text = try Self.file("a.txt", Data("earlier".utf8), fixture)
    #expect(
      try await fixture.run(["ferry", "copy", "--type", "text/html", html, "--type", "text", text])
        .status == 0)
    let earlier = try #require(try await Self.waitForEntries(fixture, count: 1).first)
    try await Self.copyText("later", fixture, count: 2)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "later")

    let restore = try await fixture.run(["ferry", "history", "restore", "\(earlier.id)"])
    #expect(restore.status == 0 && restore.stdoutText.isEmpty, "\(restore.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "earlier")
    #expect(try await fixture.run(["pbpaste", "--type", "html"]).stdoutText == "<i>earlier</i>")
    let types = try await fixture.run(["ferry", "types", "--json"])
    let listed =
      try #require(try JSONSerialization.jsonObject(with: types.stdout) as? [String: Any])["types"]
      as? [String]
    #expect(listed?.prefix(2) == ["public.html", "public.utf8-plain-text"])
    let moved = await Deadline.wait(for: .seconds(20)) {
      (try? await Self.entries(fixture))?.map(\.id) == [earlier.id, earlier.id + 1]
    }
    #expect(moved, "the restored entry moves to the top, keeping its id")
    #expect(try await Self.entries(fixture).first?.source == "ferry copy", "and its source")

    let json = try await fixture.run(["ferry", "history", "restore", "\(earlier.id + 1)", "--json"])
    #expect(
      json.stdoutText.hasPrefix(#"{"changeCount":"#)
        && json.stdoutText.hasSuffix(#","id":\#(earlier.id + 1),"pasteboard":"general"}"# + "\n"))
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "later")
    try await fixture.stop()
  }

  @Test func deleteClearAndPinBehave() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let one = try await Self.copyText("one", fixture, count: 1)
    let two = try await Self.copyText("two", fixture, count: 2)
    let three = try await Self.copyText("three", fixture, count: 3)
    let four = try await Self.copyText("four", fixture, count: 4)

    let pin = try await fixture.run(["ferry", "history", "pin", "\(two.id)", "--json"])
    #expect(try JSONDecoder().decode(HistoryEntrySummary.self, from: pin.stdout).pinned)
    #expect(try await fixture.run(["ferry", "history", "pin", "\(three.id)"]).status == 0)
    #expect(try await fixture.run(["ferry", "history", "unpin", "\(three.id)"]).status == 0)
    #expect(
      try await fixture.run(["ferry", "history"]).stdoutText.contains("\(two.id)* "),
      "a pinned entry is marked")

    let delete = try await fixture.run([
      "ferry", "history", "delete", "\(four.id)", "\(one.id)", "--json",
    ])
    #expect(delete.stdoutText == #"{"deleted":2}"# + "\n")
    #expect(try await Self.entries(fixture).map(\.id) == [three.id, two.id])

    let clear = try await fixture.run(["ferry", "history", "clear", "--json"])
    #expect(clear.stdoutText == #"{"deleted":1}"# + "\n", "pinned entries are kept")
    let kept = try await Self.entries(fixture)
    #expect(kept.map(\.id) == [two.id] && kept[0].pinned)
    let status = try await fixture.run(["ferry", "status"])
    #expect(
      status.stdoutText.contains(
        "history: 1 entry (1 pinned), 3 B in \(fixture.runtime.path)/.local/share/ferry/history.sqlite"
      ))

    #expect(try await fixture.run(["ferry", "history", "clear", "--pinned"]).status == 0)
    #expect(try await Self.entries(fixture).isEmpty)
    try await fixture.stop()
  }

  @Test func aMenuLinePickedByFzfRestoresWithNoGlue() async throws {
    try Peers.require("fzf")
    let fixture = try await BrokerFixture(display: nil, start: true)
    let picked = try await Self.copyText("pick me\nsecond line", fixture, count: 1)
    try await Self.copyText("not me", fixture, count: 2)
    let menu = try await fixture.run(["ferry", "history", "--format", "menu"])
    #expect(menu.stdoutText == "\(picked.id + 1)\tnot me\n\(picked.id)\tpick me\\nsecond line\n")
    let ferry = try Tools.path("ferry")
    // fzf's non-interactive mode picks as a user typing "pick" would.
    let pipeline =
      "'\(ferry)' history --format menu | fzf --filter pick | '\(ferry)' history restore --from-menu-line"
    let restore = try await fixture.run(["/bin/sh", "-c", pipeline])
    #expect(restore.status == 0, "\(restore.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "pick me\nsecond line")

    let line = try await fixture.run([
      "ferry", "history", "restore", "--from-menu-line", "\(picked.id + 1)\tnot me",
    ])
    #expect(line.status == 0, "\(line.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "not me")
    let cancelled = try await fixture.run([
      "/bin/sh", "-c", "'\(ferry)' history restore --from-menu-line < /dev/null",
    ])
    #expect(
      cancelled.status == 1 && cancelled.stderrText.split(separator: "\n").count == 1,
      "\(cancelled.stderrText)")
    try await fixture.stop()
  }

  @Test func badIDsAreOneLineWithDistinctStatuses() async throws {
    let none = try await BrokerFixture(display: nil, start: false)
    let noBroker = try await none.run(["ferry", "history", "show", "1"])
    #expect(noBroker.status == 3 && noBroker.stderrText.split(separator: "\n").count == 1)

    let fixture = try await BrokerFixture(display: nil, start: true)
    let entry = try await Self.copyText("only", fixture, count: 1)
    for command in [
      ["show", "999"], ["restore", "999"], ["pin", "999"], ["unpin", "999"], ["delete", "999"],
    ] {
      let run = try await fixture.run(["ferry", "history"] + command)
      #expect(run.status == 1, "\(command): \(run.status) \(run.stderrText)")
      #expect(run.stderrText == "ferry: no history entry 999\n", "\(command)")
    }
    let partly = try await fixture.run(["ferry", "history", "delete", "\(entry.id)", "998", "999"])
    #expect(
      partly.status == 1
        && partly.stderrText == "ferry: no history entries 998, 999; nothing was deleted\n")
    #expect(try await Self.entries(fixture).count == 1)
    for command in [
      ["show", "abc"], ["restore", "0x1"], ["pin", "1.5"], ["delete", "1", "x"],
      ["restore", "--from-menu-line", "x\ty"],
    ] {
      let run = try await fixture.run(["ferry", "history"] + command)
      #expect(run.status == 2, "\(command): \(run.status) \(run.stderrText)")
      #expect(run.stderrText.split(separator: "\n").count == 1, "\(command): \(run.stderrText)")
    }
    try await fixture.stop()
  }

  @Test func withoutHistoryEveryCommandSaysItIsOff() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    try await fixture.startDaemon(arguments: ["--no-history"])
    #expect(try await fixture.run(["pbcopy"], input: Data("not kept".utf8)).status == 0)
    let commands = [
      ["list"], ["search", "kept"], ["show", "1"], ["restore", "1"], ["delete", "1"], ["clear"],
      ["pin", "1"], ["unpin", "1"],
    ]
    for command in commands + [["--format", "menu"]] {
      let run = try await fixture.run(["ferry", "history"] + command)
      #expect(run.status == 1, "\(command): \(run.status)")
      #expect(
        run.stderrText == "ferry: the clipboard history is off: history.enabled is false\n",
        "\(command)")
    }
    let status = try await fixture.run(["ferry", "status"])
    #expect(status.stdoutText.contains("history: off: history.enabled is false\n"))
    let json = try await fixture.run(["ferry", "status", "--json"])
    #expect(
      json.stdoutText.contains(#""history":{"enabled":false,"problem":"history.enabled is false"}"#)
    )
    let data = fixture.runtime.appendingPathComponent(".local/share/ferry/history.sqlite").path
    #expect(!FileManager.default.fileExists(atPath: data), "no database is made")
    try await fixture.stop()
  }
}
