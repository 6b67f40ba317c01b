import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The broker as a clipboard manager people can trust, against real owners on a private
/// Xvfb: a copy made by another program stays pasteable by a third one whatever its size,
/// one copy is one change, and a reader is never answered from the item a new owner replaced.
@Suite(.serialized, .skipsWithoutPeers) struct CaptureInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip")
    xvfb = try await XvfbServer.dedicated("capture")
  }

  /// An owner of `selection` ("clipboard" or "primary") holding the bytes of `file`.
  enum Owner: String, CaseIterable, Sendable {
    case xclip, xsel, gtk, qt

    func command(_ selection: String, file: URL) async throws -> [String] {
      let peers = Tools.peersDirectory
      switch self {
      case .xclip: return ["xclip", "-i", "-quiet", "-selection", selection, file.path]
      case .xsel:
        guard Peers.path(of: "xsel") != nil else { throw PeerUnavailable(program: "xsel") }
        return [
          "sh", "-c",
          "exec xsel --nodetach -i \(selection == "primary" ? "-p" : "-b") < '\(file.path)'",
        ]
      case .gtk:
        return [
          try await Python.gtk, "-u", peers.appendingPathComponent("gtk_clipboard.py").path,
          "--selection", selection.uppercased(),
          "own", "@" + file.path, "UTF8_STRING",
        ]
      case .qt:
        return [
          try await Python.qt, "-u", peers.appendingPathComponent("qt_clipboard.py").path,
          selection, "@" + file.path,
        ]
      }
    }
  }

  /// The size a separate `xclip -o` reads from `selection`, or -1.
  private func pastedSize(_ fixture: BrokerFixture, _ selection: String) async throws -> Int {
    let result = try await fixture.run(
      ["sh", "-c", "xclip -o -selection \(selection) | wc -c"], timeout: .seconds(90))
    return Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// The case the issue measured: 70 MiB copied by xclip went dead with the broker running
  /// (10 MiB on PRIMARY). The copy is pasted by a third program after the broker captured,
  /// or drained, the owner's offer.
  @Test(arguments: [
    (Owner.xclip, "clipboard", 70), (.xclip, "primary", 70), (.xclip, "primary", 10),
    (.xclip, "clipboard", 200),
    (.xsel, "clipboard", 70), (.xsel, "primary", 10), (.gtk, "clipboard", 70),
    (.gtk, "primary", 70),
    (.qt, "clipboard", 70), (.qt, "primary", 10), (.xclip, "clipboard", 1), (.qt, "clipboard", 1),
  ])
  func aLargeCopyStaysPasteableWhileTheBrokerRuns(owner: Owner, selection: String, mebibytes: Int)
    async throws
  {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let file = try fixture.textFile(mebibytes: mebibytes)
    let peer = try fixture.start(try await owner.command(selection, file: file))
    defer { _ = peer.kill() }
    let ready = await Deadline.wait(for: .seconds(30)) {
      (try? await fixture.run(["xclip", "-o", "-selection", selection, "-t", "TARGETS"]))?
        .stdoutText.contains("UTF8_STRING") == true
    }
    try #require(ready, "\(owner) took \(selection): \(peer.errorSoFar)")
    // Let the broker see the new owner and finish with it (capture, or drain past its budget).
    let board = selection == "clipboard" ? "general" : "primary"
    let settled = await Deadline.wait(for: .seconds(60)) {
      (try? await fixture.run(["pbpaste", "-pboard", board, "--list-types"], timeout: .seconds(60)))?
        .status == 0
    }
    #expect(settled)
    #expect(
      try await pastedSize(fixture, selection) == mebibytes << 20,
      "\(owner) \(selection) \(mebibytes) MiB: a third program pastes it all")
    let viaBroker = try await fixture.run(
      ["sh", "-c", "'\(try Tools.path("pbpaste"))' -pboard \(board) | wc -c"], timeout: .seconds(90)
    )
    #expect(
      Int(viaBroker.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) == mebibytes << 20,
      "and so does pbpaste")
    #expect(
      try await pastedSize(fixture, selection) == mebibytes << 20,
      "and again: the owner still serves")
    try await fixture.stop()
  }

  /// Reads `ferry watch --json` lines as (pasteboard, changeCount, first type).
  private func events(_ watch: PeerProcess) -> [(board: String, count: Int)] {
    watch.outputSoFar.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let board = object["pasteboard"] as? String, let count = object["changeCount"] as? Int
      else { return nil }
      return (board, count)
    }
  }

  private func waitForEvents(_ watch: PeerProcess, count: Int) async -> Bool {
    await Deadline.wait(for: .seconds(15)) { () async -> Bool in self.events(watch).count >= count }
  }

  /// Issue 18: with `ferry watch` running, pbcopy, an xclip CLIPBOARD copy, then an xclip
  /// PRIMARY selection. The PRIMARY copy moved the general pasteboard's count too.
  @Test func oneCopyIsOneChangeWhateverHappensOnOtherSelections() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let watch = try await fixture.startWatch(["--json"])
    defer { _ = watch.kill() }
    #expect(try await fixture.run(["pbcopy"], input: Data("hello".utf8)).status == 0)
    #expect(await waitForEvents(watch, count: 1))
    let clipboard = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("from xclip".utf8))
    defer { _ = clipboard.kill() }
    #expect(await waitForEvents(watch, count: 2))
    let primary = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "primary"], input: Data("primary sel".utf8))
    defer { _ = primary.kill() }
    #expect(await waitForEvents(watch, count: 3))
    // A later copy on CLIPBOARD is the general pasteboard's third change: nothing came between.
    let last = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("last".utf8))
    defer { _ = last.kill() }
    #expect(await waitForEvents(watch, count: 4))
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "last")
    let seen = events(watch)
    #expect(seen.map(\.board) == ["general", "general", "primary", "general"], "\(seen)")
    #expect(seen.filter { $0.board == "general" }.map(\.count) == [1, 2, 3], "\(seen)")

    // The owner exits: the broker takes the copy over. Same copy, no change.
    _ = await last.stopped(signal: SIGKILL)
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]))?.stdoutText == "last"
      }, "the broker serves the copy of the owner that went")
    // The same bytes offered by a new owner are no change either.
    let again = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("last".utf8))
    defer { _ = again.kill() }
    // The next owner must come after this one: wait until it owns the selection (its targets
    // are xclip's two, not the broker's, which include TIMESTAMP). Started together, either
    // xclip may take the selection first.
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        let targets = try? await fixture.run([
          "xclip", "-o", "-selection", "clipboard", "-t", "TARGETS",
        ])
        return targets.map { $0.status == 0 && !$0.stdoutText.contains("TIMESTAMP") } ?? false
      }, "the repeated copy's xclip owns CLIPBOARD")
    let next = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("new".utf8))
    defer { _ = next.kill() }
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "new"
      })
    #expect(await waitForEvents(watch, count: 5))
    let general = events(watch).filter { $0.board == "general" }.map(\.count)
    #expect(
      general == [1, 2, 3, 4],
      "takeover and a repeat of the same bytes moved nothing: \(events(watch))")
    try await fixture.stop()
  }

  /// An application that hands its clipboard to the manager on exit (GTK's store) hands
  /// over a copy the broker already mirrors: no second change.
  @Test func savingForAnExitingApplicationIsNoNewChange() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let watch = try await fixture.startWatch(["--json", "--pasteboard", "general"])
    defer { _ = watch.kill() }
    let script = fixture.runtime.appendingPathComponent("gtk_store.py")
    try Data(
      """
      import gi, os, sys
      gi.require_version('Gtk', '3.0'); gi.require_version('Gdk', '3.0')
      gi.require_version('GLib', '2.0')
      from gi.repository import Gtk, Gdk, GLib
      clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
      clipboard.set_text('stored by gtk', -1)
      clipboard.set_can_store(None)
      print('copied', flush=True)
      def check():  # the main loop keeps serving the broker's capture until told to exit
          if not os.path.exists(sys.argv[1]):
              return True
          clipboard.store()
          print('stored', flush=True)
          Gtk.main_quit()
          return False
      GLib.timeout_add(50, check)
      Gtk.main()

      """.utf8
    ).write(to: script)
    let python = try await Python.gtk
    let trigger = fixture.runtime.appendingPathComponent("exit-now")
    let gtk = try fixture.start([python, "-u", script.path, trigger.path])
    defer { _ = gtk.kill() }
    #expect(await waitForOutput(gtk, "copied"))
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "stored by gtk"
      })
    #expect(await waitForEvents(watch, count: 1))
    try Data().write(to: trigger)
    #expect(await waitForOutput(gtk, "stored"))
    _ = try await DetachedThread.run { gtk.finish() }
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText
        == "stored by gtk")
    #expect(try await fixture.run(["pbcopy"], input: Data("after".utf8)).status == 0)
    #expect(await waitForEvents(watch, count: 2))
    #expect(events(watch).map(\.count) == [1, 2], "the save moved nothing: \(events(watch))")
    try await fixture.stop()
  }

  /// A Qt application's copy is one change, and so is nothing more when Qt hands the same
  /// copy to the clipboard manager as it quits.
  @Test func aQtCopyIsOneChangeAndItsSaveOnQuitNone() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let watch = try await fixture.startWatch(["--json", "--pasteboard", "general"])
    defer { _ = watch.kill() }
    let file = fixture.runtime.appendingPathComponent("qt-text")
    try Data("copied by qt".utf8).write(to: file)
    let trigger = fixture.runtime.appendingPathComponent("quit-now")
    var command = try await Owner.qt.command("clipboard", file: file)
    command += ["--quit-when", trigger.path]
    let qt = try fixture.start(command)
    defer { _ = qt.kill() }
    #expect(
      await waitForOutput(qt, "ready", timeout: .seconds(30)), "Qt took CLIPBOARD: \(qt.errorSoFar)"
    )
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["pbpaste"]))?.stdoutText == "copied by qt"
      })
    #expect(await waitForEvents(watch, count: 1))
    try Data().write(to: trigger)
    let quit = try await DetachedThread.run { qt.finish(timeout: .seconds(20)) }
    #expect(quit.status == 0, "Qt quit normally: \(quit.stderrText)")
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText
        == "copied by qt", "the copy outlives Qt")
    #expect(try await fixture.run(["pbcopy"], input: Data("after".utf8)).status == 0)
    #expect(await waitForEvents(watch, count: 2))
    #expect(events(watch).map(\.count) == [1, 2], "Qt's copy was one change: \(events(watch))")
    try await fixture.stop()
  }

  /// The broker's capture and its save for an exiting application (SAVE_TARGETS) each ask a
  /// GTK owner for all its targets in one MULTIPLE request, and get every one right.
  @Test func captureAndSaveEachAskForEveryTargetInOneMultipleRequest() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let trigger = fixture.runtime.appendingPathComponent("save-now")
    let gtk = try fixture.start(
      try await ScriptPeers.gtk([
        "--save-when", trigger.path, "own", "from gtk ünïcode", "UTF8_STRING", "text/html",
        "image/png",
      ]))
    defer { _ = gtk.kill() }
    #expect(await waitForOutput(gtk, "ready"))
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["pbpaste", "--type", "text/html"]))?.stdoutText
          == "from gtk ünïcode"
      }, "the broker captured GTK's copy")
    let requests = {
      gtk.outputSoFar.split(separator: "\n").filter { $0.hasPrefix("request ") }.map {
        $0.dropFirst(8)
      }
    }
    let multiples = { requests().filter { $0 == "MULTIPLE" }.count }
    #expect(
      await Deadline.wait(for: .seconds(5)) { () async -> Bool in multiples() == 1 },
      "\(gtk.outputSoFar)")

    try Data().write(to: trigger)
    #expect(
      await waitForOutput(gtk, "lost"),
      "the broker saved the copy and took CLIPBOARD: \(gtk.outputSoFar)")
    #expect(multiples() == 2, "\(gtk.outputSoFar)")
    #expect(
      requests().allSatisfy { ["TARGETS", "MULTIPLE"].contains($0) },
      "no target asked for on its own: \(requests())")
    _ = await gtk.stopped()
    for type in ["text/html", "image/png", "public.utf8-plain-text"] {
      let paste = try await fixture.run(["pbpaste", "--type", type])
      #expect(paste.stdoutText == "from gtk ünïcode", "\(type): \(paste.stderrText)")
    }
    try await fixture.stop()
  }

  /// A reader asking while a new owner's offer is being captured gets the new copy, never
  /// the item it replaced.
  @Test func aReadDuringACaptureIsAnsweredFromTheNewOwner() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("old".utf8)).status == 0)
    let script = fixture.runtime.appendingPathComponent("slow_owner.py")
    try Data(
      """
      import gi, time
      gi.require_version('Gtk', '3.0'); gi.require_version('Gdk', '3.0')
      from gi.repository import Gtk, Gdk
      widget = Gtk.Invisible()
      clipboard = Gdk.Atom.intern('CLIPBOARD', False)
      Gtk.selection_add_target(widget, clipboard, Gdk.Atom.intern('UTF8_STRING', False), 0)
      def on_get(widget, data, info, time_):
          time.sleep(1.5)  # a slow owner: every answer takes a while
          data.set_text('new', -1)
      widget.connect('selection-get', on_get)
      Gtk.selection_owner_set(widget, clipboard, Gdk.CURRENT_TIME)
      print('ready', flush=True)
      Gtk.main()

      """.utf8
    ).write(to: script)
    let python = try await Python.gtk
    let owner = try fixture.start([python, "-u", script.path])
    defer { _ = owner.kill() }
    #expect(await waitForOutput(owner, "ready"))
    let paste = try await fixture.run(["pbpaste"], timeout: .seconds(30))
    #expect(paste.status == 0, "\(paste.stderrText)")
    #expect(paste.stdoutText == "new", "never the item the new owner replaced")
    try await fixture.stop()
  }
}
