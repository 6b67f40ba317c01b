import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ferry on the two big desktops' compositors, started by the test support: nested Mutter on a
/// private Xvfb (GNOME: no data-control, so Ferry works through Xwayland, which Mutter bridges
/// to every Wayland program) and virtual KWin (KDE: wlr data-control, as sway). The peers are
/// wl-clipboard, xclip and a GTK 4 Wayland program copying HTML and text.
@Suite struct DesktopInteropTests {
  /// A broker fixture on `session`'s displays, its Xwayland's and its compositor's.
  static func fixture(_ session: some DesktopSession, start: Bool) async throws -> BrokerFixture {
    var environment = ["WAYLAND_DISPLAY": session.socketPath]
    if let authority = session.xAuthority { environment["XAUTHORITY"] = authority }
    return try await BrokerFixture(
      display: session.xDisplay, start: start, environment: environment)
  }

  /// Waits until `argv`, run by `fixture`, prints `text`.
  static func prints(_ fixture: BrokerFixture, _ argv: [String], _ text: String) async -> Bool {
    await Deadline.wait(for: .seconds(20)) {
      (try? await fixture.run(argv, timeout: .seconds(5)))?.stdoutText == text
    }
  }

  /// Waits until `argv`, run in `session`, prints `text`.
  static func prints(_ session: some DesktopSession, _ argv: [String], _ text: String) async
    -> Bool
  {
    await Deadline.wait(for: .seconds(20)) {
      (try? await session.run(argv, timeout: .seconds(5)))?.stdoutText == text
    }
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init)
  }

  /// The GTK 4 program's copy, taken by the compositor (on Mutter after a key press: GTK 4
  /// copies with the last key's serial), captured by the broker, then the program quits.
  static func gtk4CopyThatQuits(
    in session: some DesktopSession, fixture: BrokerFixture, pressKey: () async throws -> Void
  ) async throws -> DesktopChecks.Gtk4Copy {
    let copy = try await DesktopChecks.gtk4Copy(in: session)
    try await pressKey()
    #expect(
      await prints(fixture, ["pbpaste", "--type", "public.html"], copy.html),
      "the broker captured the HTML: \(copy.peer.errorSoFar)")
    let ended = await copy.peer.stopped()
    #expect(ended.status == 0, "gtk4_rich_copy: \(ended.stderrText)")
    return copy
  }

  /// The history holds `copy` once, HTML first.
  static func historyHoldsOnce(_ copy: DesktopChecks.Gtk4Copy, _ fixture: BrokerFixture)
    async throws
  {
    let history = try await fixture.run(["ferry", "history"]).stdoutText
    let entries = lines(history).filter { $0.contains(copy.html) || $0.contains(copy.text) }
    #expect(entries.count == 1, "\(history)")
    #expect(
      entries.first?.contains("public.html, public.utf8-plain-text") == true, "\(history)")
  }

  static func changeCount(_ fixture: BrokerFixture) async throws -> Int {
    let status = try await fixture.run(["ferry", "status", "--json"])
    struct Summary: Decodable {
      struct Board: Decodable {
        var pasteboard: String
        var changeCount: Int
      }
      var pasteboards: [Board]
    }
    let decoded = try JSONDecoder().decode(Summary.self, from: status.stdout)
    return decoded.pasteboards.first { $0.pasteboard == "general" }?.changeCount ?? -1
  }

  @Suite(.serialized, .skipsWithoutPeers) struct Mutter {
    let session: MutterSession

    init() async throws {
      session = try await MutterSession.dedicated("DesktopInteropTests")
    }

    @Test func pbcopyWithoutABrokerPastesInWlPaste() async throws {
      let fixture = try await fixture(session, start: false)
      let text = "pbcopy on GNOME \(UUID().uuidString.prefix(8))"
      let copied = try await fixture.run(["pbcopy"], input: Data(text.utf8))
      #expect(copied.status == 0, "\(copied.stderrText)")
      #expect(await prints(session, ["wl-paste", "--no-newline"], text))
    }

    @Test func aWlCopyPastesInPbpasteWithoutABroker() async throws {
      let fixture = try await fixture(session, start: false)
      let text = "wl-copy on GNOME \(UUID().uuidString.prefix(8))"
      #expect(try await session.runServing(["wl-copy", text]).status == 0)
      #expect(await prints(fixture, ["pbpaste"], text))
      let types = try await fixture.run(["pbpaste", "--list-types"])
      #expect(types.status == 0, "\(types.stderrText)")
      #expect(lines(types.stdoutText).first == "public.plain-text", "wl-copy's order: \(types)")
      let primary = "primary on GNOME \(UUID().uuidString.prefix(8))"
      #expect(try await session.runServing(["wl-copy", "--primary", primary]).status == 0)
      #expect(await prints(fixture, ["pbpaste", "-pboard", "primary"], primary))
    }

    @Test func statusSaysGNOMEThroughXwayland() async throws {
      let fixture = try await fixture(session, start: true)
      #expect(
        await Deadline.wait(for: .seconds(20)) {
          let status = try? await fixture.run(["ferry", "status"])
          return status?.stdoutText.contains(
            "X11 display \(session.xDisplay): bridged (ICCCM selections); GNOME (Mutter) through Xwayland"
          ) == true
        })
      try await fixture.stop()
    }

    /// The case: the app's copy keeps every type after it quits (Mutter's own manager
    /// restores the text alone), once in the history, HTML first.
    @Test func aGtk4RichCopyOutlivesItsAppWithEveryType() async throws {
      let fixture = try await fixture(session, start: true)
      #expect(try await session.runServing(["wl-copy", "before GTK"]).status == 0)
      #expect(await prints(fixture, ["pbpaste"], "before GTK"))
      let before = try await changeCount(fixture)
      let copy = try await gtk4CopyThatQuits(in: session, fixture: fixture) {
        try await session.pressKey()
      }
      #expect(
        await prints(session, ["wl-paste", "--no-newline", "--type", "text/html"], copy.html),
        "wl-paste -t text/html after the app quit")
      let x = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "text/html"])
      #expect(x.stdoutText == copy.html, "xclip -t text/html -o: \(x.stderrText)")
      let listed = lines(try await session.run(["wl-paste", "--list-types"]).stdoutText)
      #expect(Array(listed.prefix(2)) == ["text/html", "text/plain;charset=utf-8"], "\(listed)")
      try await historyHoldsOnce(copy, fixture)
      #expect(
        try await changeCount(fixture) == before + 1,
        "the app's copy is one change; Mutter's restore and its replacement none")
      try await fixture.stop()
    }

    /// Ferry's copy reaches Wayland programs in Ferry's order, MIME types only.
    @Test func wlPasteListsAFerryCopyInFerrysOrder() async throws {
      let fixture = try await fixture(session, start: true)
      let html = fixture.runtime.appendingPathComponent("copy.html")
      let text = fixture.runtime.appendingPathComponent("copy.txt")
      try Data("<b>order</b>".utf8).write(to: html)
      try Data("order".utf8).write(to: text)
      let copied = try await fixture.run([
        "ferry", "copy", "--type", "public.html", html.path, "--type", "text", text.path,
      ])
      #expect(copied.status == 0, "\(copied.stderrText)")
      #expect(await prints(session, ["wl-paste", "--no-newline"], "order"))
      let listed = lines(try await session.run(["wl-paste", "--list-types"]).stdoutText)
      #expect(Array(listed.prefix(2)) == ["text/html", "text/plain;charset=utf-8"], "\(listed)")
      for xOnly in ["TARGETS", "MULTIPLE", "SAVE_TARGETS", "TIMESTAMP", "UTF8_STRING"] {
        #expect(!listed.contains(xOnly), "\(xOnly) in \(listed)")
      }
      try await fixture.stop()
    }
  }

  @Suite(.serialized, .skipsWithoutPeers) struct KWin {
    let session: KWinSession

    init() async throws {
      session = try await KWinSession.dedicated("DesktopInteropTests")
    }

    @Test func pbcopyAndPbpasteWithoutABroker() async throws {
      let fixture = try await fixture(session, start: false)
      let text = "pbcopy on KDE \(UUID().uuidString.prefix(8))"
      #expect(try await fixture.run(["pbcopy"], input: Data(text.utf8)).status == 0)
      #expect(await prints(session, ["wl-paste", "--no-newline"], text))
      let other = "wl-copy on KDE \(UUID().uuidString.prefix(8))"
      #expect(try await session.runServing(["wl-copy", other]).status == 0)
      #expect(await prints(fixture, ["pbpaste"], other))
    }

    @Test func pbcopyAndPbpasteThroughTheBroker() async throws {
      let fixture = try await fixture(session, start: true)
      let text = "broker on KDE \(UUID().uuidString.prefix(8))"
      #expect(try await fixture.run(["pbcopy"], input: Data(text.utf8)).status == 0)
      #expect(await prints(session, ["wl-paste", "--no-newline"], text))
      let other = "wl-copy to the broker \(UUID().uuidString.prefix(8))"
      #expect(try await session.runServing(["wl-copy", other]).status == 0)
      #expect(await prints(fixture, ["pbpaste"], other))
      try await fixture.stop()
    }

    /// The broker bridges Xwayland and KWin both ways itself, with no X window active (KWin's
    /// own bridge needs one).
    @Test func x11AndWaylandBothWaysThroughTheBroker() async throws {
      let fixture = try await fixture(session, start: true)
      let fromX = "xclip on KDE \(UUID().uuidString.prefix(8))"
      let xclip = try fixture.start(
        ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data(fromX.utf8))
      defer { _ = xclip.kill() }
      #expect(await prints(session, ["wl-paste", "--no-newline"], fromX))
      let fromWayland = "wl-copy to X on KDE \(UUID().uuidString.prefix(8))"
      #expect(try await session.runServing(["wl-copy", fromWayland]).status == 0)
      #expect(await prints(fixture, ["xclip", "-o", "-selection", "clipboard"], fromWayland))
      try await fixture.stop()
    }

    @Test func aGtk4RichCopyOutlivesItsAppWithEveryTypeAndIsOneChange() async throws {
      let fixture = try await fixture(session, start: true)
      let before = try await DesktopInteropTests.changeCount(fixture)
      let copy = try await gtk4CopyThatQuits(in: session, fixture: fixture) {}
      #expect(
        await prints(session, ["wl-paste", "--no-newline", "--type", "text/html"], copy.html))
      #expect(
        await prints(
          fixture, ["xclip", "-o", "-selection", "clipboard", "-t", "text/html"], copy.html))
      #expect(
        try await DesktopInteropTests.changeCount(fixture) == before + 1, "one copy is one change")
      try await historyHoldsOnce(copy, fixture)
      try await fixture.stop()
    }

    /// KWin 5.27 sends no data-control event for an empty primary selection, and wl-copy
    /// 2.1 takes that for a compositor without one ("does not seem to support primary
    /// selection"). The selection is there: Ferry's copy to it pastes, in Ferry and in
    /// wl-paste.
    @Test func primaryWorksThroughFerryWhereWlCopyGivesUp() async throws {
      let wl = try await session.run(["wl-copy", "--primary", "p"], timeout: .seconds(10))
      #expect(wl.status != 0, "wl-copy --primary: \(wl.stderrText)")
      #expect(wl.stderrText.contains("primary selection"), "\(wl.stderrText)")
      let fixture = try await fixture(session, start: false)
      let text = "primary on KDE \(UUID().uuidString.prefix(8))"
      let copied = try await fixture.run(
        ["pbcopy", "-pboard", "primary"], input: Data(text.utf8), timeout: .seconds(10))
      #expect(copied.status == 0, "\(copied.stderrText)")
      #expect(await prints(fixture, ["pbpaste", "-pboard", "primary"], text))
      let pasted = try await session.run(
        ["wl-paste", "--primary", "--no-newline"], timeout: .seconds(10))
      #expect(pasted.stdoutText == text, "wl-paste --primary: \(pasted.stderrText)")
    }
  }
}
