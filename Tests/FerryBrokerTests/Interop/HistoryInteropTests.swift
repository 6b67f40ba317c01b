import ClipboardHistory
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing
import UniformTypeIdentifiers

/// The history against real owners on a private Xvfb: what GTK, Qt and xclip copy is kept
/// with every format it was captured in, in order, and the newest copy is back on
/// CLIPBOARD, in all its formats, after the broker restarts.
@Suite(.serialized, .skipsWithoutPeers) struct HistoryInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip")
    xvfb = try await XvfbServer.dedicated("history")
  }

  /// The history the fixture's broker keeps (HOME is the fixture's directory), read as a
  /// second process would: read-only, beside the writer.
  static func entries(_ fixture: BrokerFixture) throws -> [HistoryEntry] {
    let directory = fixture.runtime.appendingPathComponent(".local/share/ferry")
    let store = try HistoryStore(directory: directory, access: .reader)
    defer { try? store.close() }
    return try store.list(limit: 100)
  }

  static func contents(_ fixture: BrokerFixture, _ entry: HistoryEntry, _ type: String) throws
    -> Data?
  {
    let store = try HistoryStore(
      directory: fixture.runtime.appendingPathComponent(".local/share/ferry"), access: .reader)
    defer { try? store.close() }
    return try store.contents(of: entry.id, type: type)?.data()
  }

  /// Waits until the history holds `count` entries.
  static func waitForEntries(_ fixture: BrokerFixture, _ count: Int) async -> [HistoryEntry] {
    var found: [HistoryEntry] = []
    _ = await Deadline.wait(for: .seconds(20)) { () async -> Bool in
      found = (try? entries(fixture)) ?? []
      return found.count >= count
    }
    return found
  }

  @Test func copiesFromGTKXclipAndQtAreKeptInEveryFormatAndTheNewestComesBackAfterARestart()
    async throws
  {
    let python = try await Python.gtk
    _ = try await Python.qt
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let html = "<b>from gtk</b>"
    let gtk = try fixture.start([
      python, "-u", Tools.peersDirectory.appendingPathComponent("gtk_clipboard.py").path, "own",
      html, "UTF8_STRING", "text/html",
    ])
    #expect(await waitForOutput(gtk, "ready"))
    let afterGTK = await Self.waitForEntries(fixture, 1)
    try #require(afterGTK.count == 1, "the GTK copy is recorded: \(gtk.errorSoFar)")
    #expect(
      afterGTK[0].types.prefix(2) == ["public.utf8-plain-text", "public.html"],
      "\(afterGTK[0].types)")
    #expect(try Self.contents(fixture, afterGTK[0], "public.html") == Data(html.utf8))

    let png = fixture.runtime.appendingPathComponent("dot.png")
    let pngBytes = Data(
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { UInt8($0) })
    try pngBytes.write(to: png)
    let xclip = try fixture.start([
      "xclip", "-i", "-quiet", "-selection", "clipboard", "-t", "image/png", png.path,
    ])
    defer { _ = xclip.kill() }
    let afterXclip = await Self.waitForEntries(fixture, 2)
    try #require(afterXclip.count == 2)
    #expect(afterXclip[0].types == ["public.png"], "\(afterXclip[0].types)")
    #expect(try Self.contents(fixture, afterXclip[0], "public.png") == pngBytes)

    let text = fixture.runtime.appendingPathComponent("qt.txt")
    try Data("from qt".utf8).write(to: text)
    let qt = try fixture.start([
      python, "-u", Tools.peersDirectory.appendingPathComponent("qt_clipboard.py").path,
      "clipboard", "@" + text.path,
      "application/x-ferry-test",
    ])
    #expect(await waitForOutput(qt, "ready"))
    let afterQt = await Self.waitForEntries(fixture, 3)
    try #require(afterQt.count == 3)
    let qtEntry = afterQt[0]
    let custom = try #require(UTType(mimeType: "application/x-ferry-test"))
    #expect(qtEntry.types == ["public.utf8-plain-text", custom.identifier], "\(qtEntry.types)")
    #expect(qtEntry.preview == "from qt")
    let byMIME = try await fixture.run(["pbpaste", "--type", "application/x-ferry-test"])
    #expect(
      byMIME.stdoutText == "from qt", "Qt's own MIME type, asked by that name: \(byMIME.stderrText)"
    )
    #expect(afterQt.map(\.pasteboard) == ["general", "general", "general"])
    #expect(
      afterQt[2].types.prefix(2) == ["public.utf8-plain-text", "public.html"],
      "the GTK entry is still whole")
    // GTK's owner window names its process (_NET_WM_PID); xclip's and Qt's name nothing.
    #expect(afterQt[2].source == "python3" && afterQt[1].source == nil, "\(afterQt.map(\.source))")

    // Everyone goes; the broker restarts with nobody owning CLIPBOARD.
    _ = await gtk.stopped()
    _ = await xclip.stopped()
    _ = await qt.stopped()
    try await fixture.stop()
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).status != 0,
      "nobody owns CLIPBOARD")
    try await fixture.startDaemon()
    let restored = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText) == "from qt"
    }
    #expect(restored, "the newest copy is back on CLIPBOARD")
    let targets = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
      .stdoutText
    #expect(targets.contains("application/x-ferry-test"), "\(targets)")
    let customBytes = try await fixture.run([
      "xclip", "-o", "-selection", "clipboard", "-t", "application/x-ferry-test",
    ])
    #expect(customBytes.stdoutText == "from qt")
    try await fixture.stop()
  }

  /// An application that owns CLIPBOARD when the broker starts keeps it: the history's
  /// newest copy is not put back over it.
  @Test func aLiveOwnerIsNeverReplacedByTheRestoredCopy() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("older copy".utf8)).status == 0)
    _ = await Self.waitForEntries(fixture, 1)
    try await fixture.stop()
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("live owner".utf8))
    defer { _ = xclip.kill() }
    let owned = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText)
        == "live owner"
    }
    try #require(owned)
    try await fixture.startDaemon()
    let log = try await fixture.stop()
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "live owner")
    #expect(xclip.process.isRunning, "xclip still owns CLIPBOARD")
    #expect(log.contains("not restoring"), "\(log.suffix(400))")
  }
}
