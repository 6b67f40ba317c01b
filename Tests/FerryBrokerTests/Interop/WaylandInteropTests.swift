import FerryClient
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Ferry on Wayland against headless sway 1.7 and wl-clipboard: the broker mirrors Wayland
/// copies and serves its own, PRIMARY both ways, a copy outliving its owner, one change per
/// copy, and X11 ↔ Wayland through XWayland with no X window focused (sway itself bridges
/// only for a focused X window).
@Suite(.serialized, .skipsWithoutPeers) struct WaylandInteropTests {
  let session: WaylandSession

  init() async throws {
    session = try await WaylandSession.dedicated("WaylandInteropTests")
  }

  private func broker(x11 display: String? = nil) async throws -> BrokerFixture {
    try await BrokerFixture(
      display: display, start: true, environment: ["WAYLAND_DISPLAY": session.socketPath])
  }

  /// Waits until `pbpaste` (with `arguments`) prints `text`.
  private func pastes(_ fixture: BrokerFixture, _ text: String, _ arguments: [String] = []) async
    -> Bool
  {
    await Deadline.wait(for: .seconds(20)) {
      (try? await fixture.run(["pbpaste"] + arguments).stdoutText) == text
    }
  }

  /// Waits until `wl-paste` (with `arguments`) prints `text`.
  private func wlPastes(_ text: String, _ arguments: [String] = []) async -> Bool {
    await Deadline.wait(for: .seconds(20)) {
      (try? await session.run(["wl-paste", "--no-newline"] + arguments).stdoutText) == text
    }
  }

  private func changeCount(_ fixture: BrokerFixture) async throws -> Int {
    let status = try await fixture.run(["ferry", "status", "--json"])
    let decoded = try JSONDecoder().decode(StatusSummary.self, from: status.stdout)
    return decoded.pasteboards.first { $0.pasteboard == "general" }?.changeCount ?? -1
  }

  private struct StatusSummary: Decodable {
    struct Board: Decodable {
      var pasteboard: String
      var changeCount: Int
    }
    var wayland: String?
    var pasteboards: [Board]
  }

  @Test func statusNamesTheWaylandDisplay() async throws {
    let fixture = try await broker()
    let status = try await fixture.run(["ferry", "status"])
    #expect(
      status.stdoutText.contains("Wayland display \(session.socketPath): bridged"),
      "\(status.stdoutText)")
    let json = try JSONDecoder().decode(
      StatusSummary.self, from: try await fixture.run(["ferry", "status", "--json"]).stdout)
    #expect(json.wayland == session.socketPath)
  }

  @Test func aWlCopyPastesThroughTheBroker() async throws {
    let fixture = try await broker()
    #expect(
      try await session.runServing(["wl-copy", "--type", "text/html", "<i>wayland</i>"]).status == 0
    )
    #expect(await pastes(fixture, "<i>wayland</i>", ["--type", "public.html"]))
    let types = try await fixture.run(["pbpaste", "--list-types"])
    #expect(types.stdoutText.split(separator: "\n").first == "public.html", "\(types.stdoutText)")
  }

  @Test func aPbcopyPastesInWlPasteWithItsTypesInOrder() async throws {
    let fixture = try await broker()
    let html = fixture.runtime.appendingPathComponent("copy.html")
    let text = fixture.runtime.appendingPathComponent("copy.txt")
    try Data("<b>x</b>".utf8).write(to: html)
    try Data("x".utf8).write(to: text)
    let copied = try await fixture.run([
      "ferry", "copy", "--type", "public.html", html.path, "--type", "text", text.path,
    ])
    #expect(copied.status == 0, "\(copied.stderrText)")
    #expect(await wlPastes("x"))
    let listed = try await session.run(["wl-paste", "--list-types"]).stdoutText.split(
      separator: "\n"
    ).map(String.init)
    #expect(listed.first == "text/html", "\(listed)")
    #expect(
      try await session.run(["wl-paste", "--no-newline", "--type", "text/html"]).stdoutText
        == "<b>x</b>")
  }

  @Test func primaryBothWays() async throws {
    let fixture = try await broker()
    #expect(
      try await session.runServing(["wl-copy", "--primary", "selected on wayland"]).status == 0)
    #expect(await pastes(fixture, "selected on wayland", ["-pboard", "primary"]))
    #expect(
      try await fixture.run(["pbcopy", "-pboard", "primary"], input: Data("from ferry".utf8)).status
        == 0)
    #expect(await wlPastes("from ferry", ["--primary"]))
  }

  @Test func aCopyOutlivesItsOwner() async throws {
    let fixture = try await broker()
    let owner = try await session.peer([
      "wl-copy", "--foreground", "--type", "text/plain;charset=utf-8", "kept",
    ])
    #expect(await pastes(fixture, "kept"))
    let count = try await changeCount(fixture)
    _ = try await DetachedThread.run { owner.kill() }
    #expect(await wlPastes("kept"), "the broker serves the copy once its owner has gone")
    #expect(try await changeCount(fixture) == count, "taking the copy over is not a change")
  }

  /// Issue 31 on Wayland, with a capture budget of 1 MiB: a copy past it that a paste read in
  /// full outlives its owner for every reader (wl-paste as pbpaste); one nobody read is gone
  /// for every reader once its owner exits.
  @Test func aCopyPastTheBudgetOutlivesItsOwnerOnlyWhenReadInFull() async throws {
    let fixture = try await BrokerFixture(
      display: nil, start: false, environment: ["WAYLAND_DISPLAY": session.socketPath])
    try await fixture.startDaemon(arguments: ["--capture-limit", "1"])
    let read = Data(String(repeating: "read in full on wayland\n", count: 160_000).utf8)
    let owner = try await session.peer(
      ["wl-copy", "--foreground", "--type", "text/plain;charset=utf-8"], input: read)
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await fixture.run(["pbpaste"], timeout: .seconds(30)))?.stdout == read
      }, "pbpaste reads the copy past the budget in full")
    _ = try await DetachedThread.run { owner.kill() }
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await session.run(["wl-paste", "--no-newline"]))?.stdout == read
      }, "the broker serves what was read once its owner has gone")
    #expect(try await fixture.run(["pbpaste"]).stdout == read)

    let before = try await changeCount(fixture)
    let unread = Data(String(repeating: "never read on wayland\n", count: 160_000).utf8)
    let second = try await session.peer(
      ["wl-copy", "--foreground", "--type", "text/plain;charset=utf-8"], input: unread)
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        (try? await changeCount(fixture)).map { $0 > before } ?? false
      }, "the broker saw the second copy")
    #expect(try await fixture.run(["pbpaste", "--list-types"]).status == 0)
    _ = try await DetachedThread.run { second.kill() }
    var paste: PeerProcess.Result?
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        paste = try? await fixture.run(["pbpaste"])
        return paste?.status == 1
      }, "pbpaste finds the copy gone: \(paste?.stderrText ?? "")")
    let wlPaste = try await session.run(["wl-paste", "--no-newline"])
    #expect(wlPaste.status != 0 && wlPaste.stdout.isEmpty, "and so does wl-paste")
    try await fixture.stop()
  }

  @Test func eachCopyIsOneChange() async throws {
    let fixture = try await broker()
    let before = try await changeCount(fixture)
    #expect(try await session.runServing(["wl-copy", "one"]).status == 0)
    #expect(await pastes(fixture, "one"))
    #expect(try await fixture.run(["pbcopy"], input: Data("two".utf8)).status == 0)
    #expect(await wlPastes("two"))
    #expect(try await session.runServing(["wl-copy", "three"]).status == 0)
    #expect(await pastes(fixture, "three"))
    #expect(try await changeCount(fixture) == before + 3)
  }

  @Test func aWaylandCopyIsInTheHistoryWithEveryTypeAndIsRestored() async throws {
    let fixture = try await broker()
    #expect(
      try await session.runServing(["wl-copy", "--type", "text/html", "<b>kept</b>"]).status == 0)
    let entry = try #require(try await HistoryCommandTests.waitForEntries(fixture, count: 1).first)
    #expect(entry.types.first == "public.html", "\(entry.types)")
    #expect(entry.types.contains("public.utf8-plain-text"), "\(entry.types)")
    // A broker started with nobody owning the clipboard puts the newest copy back on it.
    try await fixture.stop()
    #expect(try await session.run(["wl-copy", "--clear"]).status == 0)
    try await fixture.startDaemon()
    #expect(await wlPastes("<b>kept</b>", ["--type", "text/html"]))
  }

  @Test func aSensitiveCopyIsMarkedAndNotKept() async throws {
    let fixture = try await broker()
    #expect(
      try await fixture.run(["pbcopy", "--sensitive"], input: Data("hunter2".utf8)).status == 0)
    #expect(await wlPastes("hunter2"))
    let types = try await session.run(["wl-paste", "--list-types"]).stdoutText
    #expect(types.split(separator: "\n").contains("x-kde-passwordManagerHint"), "\(types)")
    let hint = try await session.run(["wl-paste", "--type", "x-kde-passwordManagerHint"])
    #expect(hint.stdoutText == "secret")
    #expect(try await HistoryCommandTests.entries(fixture).isEmpty, "a secret is never kept")
  }

  @Test func oneHundredMebibytesEachWayThroughTheBroker() async throws {
    let fixture = try await broker()
    let file = try fixture.textFile(mebibytes: 100)
    let bytes = try Data(contentsOf: file)
    #expect(
      try await session.runServing(["wl-copy", "--type", "text/plain;charset=utf-8"], input: bytes)
        .status == 0)
    var pasted = Data()
    let read = await Deadline.wait(for: .seconds(60)) {
      pasted = (try? await fixture.run(["pbpaste"], timeout: .seconds(60)).stdout) ?? Data()
      return pasted.count == bytes.count
    }
    #expect(read && pasted == bytes, "pbpaste gave \(pasted.count) of \(bytes.count) bytes")
    let copied = try await fixture.run(["pbcopy", file.path], timeout: .seconds(60))
    #expect(copied.status == 0, "\(copied.stderrText)")
    let wlPasted = try await session.run(["wl-paste", "--no-newline"], timeout: .seconds(60))
    #expect(wlPasted.stdout.count == bytes.count)
    #expect(wlPasted.stdout == bytes)
  }

  /// The GTK peer, copied where the session's user can read it (a clean clone may sit in a
  /// directory only its owner can enter).
  private func gtkPeer() throws -> String {
    let source = Tools.peersDirectory.appendingPathComponent("gtk_wayland_clipboard.py")
    let copy = URL(fileURLWithPath: session.directory).appendingPathComponent(
      "gtk_wayland_clipboard.py")
    if !FileManager.default.fileExists(atPath: copy.path) {
      try FileManager.default.copyItem(at: source, to: copy)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
    }
    return copy.path
  }

  @Test func aGtkCopyOnWaylandPastesThroughTheBrokerAndOutlivesIt() async throws {
    let fixture = try await broker()
    let peer = try gtkPeer()
    let gtk = try await session.peer(
      ["/usr/bin/python3", "-u", peer, "own", "from GTK on Wayland"],
      environment: ["GDK_BACKEND": "wayland"]
    )
    let shown = await Deadline.wait(for: .seconds(20)) {
      gtk.outputSoFar.contains("window") || !gtk.process.isRunning
    }
    try #require(shown && gtk.process.isRunning, "GTK: \(gtk.outputSoFar) \(gtk.errorSoFar)")
    // GTK sets a Wayland selection only with an input event's serial: a key from a virtual
    // keyboard gives it one (headless sway has no keyboard of its own).
    let ready = await Deadline.wait(for: .seconds(20)) {
      _ = try? await session.run(["wtype", "-k", "Shift_L"])
      return gtk.outputSoFar.contains("ready")
    }
    try #require(ready, "GTK never copied: \(gtk.outputSoFar) \(gtk.errorSoFar)")
    #expect(await pastes(fixture, "from GTK on Wayland"))
    _ = try await DetachedThread.run { gtk.kill() }
    #expect(await wlPastes("from GTK on Wayland"), "the broker serves the copy once GTK has gone")
  }

  @Test func gtkOnWaylandReadsWhatPbcopyCopied() async throws {
    let fixture = try await broker()
    #expect(try await fixture.run(["pbcopy"], input: Data("for GTK".utf8)).status == 0)
    #expect(await wlPastes("for GTK"))
    let gtk = try await session.peer(
      ["/usr/bin/python3", "-u", try gtkPeer(), "read"], environment: ["GDK_BACKEND": "wayland"])
    let read = await Deadline.wait(for: .seconds(20)) {
      if gtk.outputSoFar.contains("window") {
        _ = try? await session.run(["wtype", "-k", "Shift_L"])
      }
      return gtk.outputSoFar.contains("text:") || gtk.outputSoFar.contains("none")
        || !gtk.process.isRunning
    }
    let output = gtk.outputSoFar
    _ = try await DetachedThread.run { gtk.kill() }
    #expect(read && output.contains("text: for GTK"), "GTK: \(output)")
  }

  @Test func anImageIsOfferedOnWaylandInEveryFormat() async throws {
    let fixture = try await broker()
    let png = try Data(contentsOf: URL(fileURLWithPath: ImageInteropTests.png))
    #expect(try await fixture.run(["pbcopy"], input: png).status == 0)
    var types: [String] = []
    let listed = await Deadline.wait(for: .seconds(20)) {
      types = ((try? await session.run(["wl-paste", "--list-types"]))?.stdoutText ?? "")
        .split(separator: "\n").map(String.init)
      return types.first == "image/png"
    }
    #expect(listed, "\(types)")
    #expect(
      types.filter(ImageInteropTests.formats.contains) == ImageInteropTests.formats, "\(types)")
    let bmp = try await session.run(["wl-paste", "--type", "image/bmp"])
    #expect(bmp.status == 0 && bmp.stdout.starts(with: Data("BM".utf8)), "\(bmp.stderrText)")
  }

  @Test func x11AndWaylandAreBridgedWithNoWindowFocused() async throws {
    let display = try await DetachedThread.run { try session.xDisplay() }
    let fixture = try await broker(x11: display)
    let before = try await changeCount(fixture)
    let xclip = try await DetachedThread.run {
      try PeerProcess.run(
        ["xclip", "-selection", "clipboard", "-i"], display: display, input: Data("from X".utf8))
    }
    #expect(xclip.status == 0)
    #expect(await wlPastes("from X"), "an X copy pastes in a Wayland program")
    #expect(try await session.runServing(["wl-copy", "from Wayland"]).status == 0)
    let pasted = await Deadline.wait(for: .seconds(20)) {
      let result = try? await DetachedThread.run {
        try PeerProcess.run(["xclip", "-selection", "clipboard", "-o"], display: display)
      }
      return result?.stdoutText == "from Wayland"
    }
    #expect(pasted, "a Wayland copy pastes in an X program")
    #expect(try await changeCount(fixture) == before + 2, "each copy is recorded once")
  }

  /// Whether the window sway has focused is an X window (an XWayland view).
  private func anXWindowHasFocus() async -> Bool {
    guard let tree = try? await session.run(["swaymsg", "-t", "get_tree", "--raw"]),
      let root = try? JSONSerialization.jsonObject(with: tree.stdout)
    else { return false }
    func focusedShell(_ node: Any) -> String? {
      guard let node = node as? [String: Any] else { return nil }
      if node["focused"] as? Bool == true { return node["shell"] as? String }
      let children = (node["nodes"] as? [Any] ?? []) + (node["floating_nodes"] as? [Any] ?? [])
      return children.lazy.compactMap(focusedShell).first
    }
    return focusedShell(root) == "xwayland"
  }

  /// With an X window focused, sway bridges the clipboard between X and Wayland itself (its
  /// XWayland window manager owns CLIPBOARD on behalf of the Wayland selection, and the
  /// reverse) beside the broker doing the same: each copy still pastes on the other side, is
  /// recorded once, and nothing bounces between the two bridges afterwards.
  @Test func aFocusedXWindowMakesNoLoopWithSwaysOwnBridge() async throws {
    let display = try await DetachedThread.run { try session.xDisplay() }
    let fixture = try await broker(x11: display)
    let window = try await session.peer(["xmessage", "-name", "ferry-focus", "focus"], x11: true)
    defer { window.terminate() }
    #expect(await Deadline.wait(for: .seconds(20)) { await anXWindowHasFocus() })
    let before = try await changeCount(fixture)
    #expect(try await session.runServing(["wl-copy", "from Wayland, X focused"]).status == 0)
    let pastedInX = await Deadline.wait(for: .seconds(20)) {
      let result = try? await DetachedThread.run {
        try PeerProcess.run(["xclip", "-selection", "clipboard", "-o"], display: display)
      }
      return result?.stdoutText == "from Wayland, X focused"
    }
    #expect(pastedInX, "a Wayland copy pastes in the focused X program's display")
    let xclip = try await DetachedThread.run {
      try PeerProcess.run(
        ["xclip", "-selection", "clipboard", "-i"], display: display,
        input: Data("from X, X focused".utf8))
    }
    #expect(xclip.status == 0)
    #expect(await wlPastes("from X, X focused"), "an X copy pastes in a Wayland program")
    #expect(
      await Deadline.wait(for: .seconds(10)) { (try? await changeCount(fixture)) == before + 2 })
    // No loop: over three quiet seconds the count stays where it is, and the clipboard
    // keeps the last copy on both sides.
    let moved = await Deadline.wait(for: .seconds(3)) {
      (try? await changeCount(fixture)) != before + 2
    }
    let changes = try await changeCount(fixture) - before
    #expect(!moved && changes == 2, "changes after the two copies and a quiet wait: \(changes)")
    #expect(await wlPastes("from X, X focused"))
    #expect(await pastes(fixture, "from X, X focused"))
    let log = try await fixture.stop()
    if !pastedInX || changes != 2 {
      print(
        "broker log:\n\(log.split(separator: "\n").filter { !$0.contains("client closed the connection") && !$0.contains("ferry status") && !$0.contains("code=providerFailed") }.suffix(200).joined(separator: "\n"))"
      )
    }
  }
}

/// Ferry's tools on Wayland without a broker, as wl-clipboard works.
@Suite(.serialized, .skipsWithoutPeers) struct WaylandDirectTests {
  let session: WaylandSession

  init() async throws {
    session = try await WaylandSession.dedicated("WaylandDirectTests")
  }

  private func fixture() async throws -> BrokerFixture {
    try await BrokerFixture(
      display: nil, start: false, environment: ["WAYLAND_DISPLAY": session.socketPath])
  }

  @Test func pbcopyLeavesAServerAndPbpasteReadsDirectly() async throws {
    let tools = try await fixture()
    let copied = try await tools.run(["pbcopy"], input: Data("no broker".utf8))
    #expect(copied.status == 0, "\(copied.stderrText)")
    #expect(try await session.run(["wl-paste", "--no-newline"]).stdoutText == "no broker")
    #expect(
      try await session.runServing(["wl-copy", "--type", "text/html", "<p>direct</p>"]).status == 0)
    let pasted = try await tools.run(["pbpaste", "--type", "public.html"])
    #expect(pasted.status == 0, "\(pasted.stderrText)")
    #expect(pasted.stdoutText == "<p>direct</p>")
    let types = try await tools.run(["pbpaste", "--list-types"])
    #expect(types.stdoutText.split(separator: "\n").first == "public.html")
  }

  @Test func pbpasteWithNothingCopiedSaysSo() async throws {
    let tools = try await fixture()
    #expect(try await session.run(["wl-copy", "--clear"]).status == 0)
    let pasted = try await tools.run(["pbpaste"])
    #expect(pasted.status == 1)
    #expect(pasted.stderrText.contains("nobody owns CLIPBOARD"), "\(pasted.stderrText)")
  }

  @Test func aCompositorThatIsNotThereIsOneLine() async throws {
    let tools = try await BrokerFixture(
      display: nil, start: false, environment: ["WAYLAND_DISPLAY": "/nonexistent/wayland-9"])
    let pasted = try await tools.run(["pbpaste"])
    #expect(pasted.status == 3)
    #expect(pasted.stderrText.split(separator: "\n").count == 1, "\(pasted.stderrText)")
    #expect(
      pasted.stderrText.contains("cannot connect to the Wayland display /nonexistent/wayland-9"))
  }
}
