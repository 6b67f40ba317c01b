import FerrySystem
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `pbcopy`, `pbpaste`, `ferry` and the broker against real peers on a private Xvfb: xclip,
/// xsel, a GTK 3 and a Tk program. One suite, run in order: every test uses CLIPBOARD.
@Suite(.serialized, .skipsWithoutPeers) struct CommandLineInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip")
    // A display of its own: the X11 interop suites use CLIPBOARD on the shared one meanwhile.
    xvfb = try await XvfbServer.dedicated("command-line")
  }

  /// Takes CLIPBOARD away from whoever holds it (a detached pbcopy server exits then).
  func resetClipboard(_ fixture: BrokerFixture) async throws {
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("reset".utf8))
    _ = await Deadline.wait(for: .seconds(5)) {
      (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText) == "reset"
    }
    _ = try await DetachedThread.run { xclip.kill() }
  }

  @Test func pbcopyServesXclipXselGTKAndTkWithoutABroker() async throws {
    try Peers.require("xsel")
    let fixture = try await BrokerFixture(display: xvfb.name, start: false)
    let text = "héllo wörld"
    let copy = try await fixture.run(["pbcopy"], input: Data(text.utf8))
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == text)
    #expect(try await fixture.run(["xsel", "-o", "-b"]).stdoutText == text)
    let gtk = try await fixture.run(try await ScriptPeers.gtk(["read", "UTF8_STRING"]))
    #expect(gtk.stdoutText.contains("text=\(hex(text))"), "\(gtk.stdoutText) \(gtk.stderrText)")
    let tk = try await fixture.run(try await ScriptPeers.tk(["read", "UTF8_STRING"]))
    #expect(
      tk.stdoutText.contains("UTF8_STRING -> text=\(hex(text))"),
      "\(tk.stdoutText) \(tk.stderrText)")
    try await resetClipboard(fixture)
  }

  /// The bytes a process has read so far (`rchar` of `/proc/PID/io`): files and sockets.
  static func bytesRead(byProcess pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") })
    else { return nil }
    return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces))
  }

  /// The detached selection server pbcopy left serving `display`'s CLIPBOARD.
  static func selectionServer(of display: String) -> Int32? {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).first { pid in
      guard let data = try? Data(wholeFileAt: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else {
        return false
      }
      let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      return arguments.contains("--x-serve-selection") && arguments.contains(display)
    }
  }

  /// A pbcopy server answers its first reader from its own tables: a new server per copy must
  /// not read the shared-mime-info database (about 90 kB of files, 15 ms) to make its
  /// targets, or every paste right after a copy waits for it.
  @Test func pbcopysServerAnswersItsFirstReaderWithoutReadingTheMIMEDatabase() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: false)
    #expect(try await fixture.run(["pbcopy"], input: Data("first paste".utf8)).status == 0)
    let server = try #require(Self.selectionServer(of: xvfb.name), "pbcopy left a server")
    let before = try #require(Self.bytesRead(byProcess: server))
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "first paste")
    let targets = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
      .stdoutText
    #expect(
      targets.contains("UTF8_STRING") && targets.contains("text/plain;charset=utf-8"), "\(targets)")
    let after = try #require(Self.bytesRead(byProcess: server))
    #expect(after - before < 16 << 10, "the server read \(after - before) bytes to answer")
    try await resetClipboard(fixture)
  }

  @Test func pbcopyReturnsAtOnceInsideCommandSubstitution() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: false)
    let pbcopy = try Tools.path("pbcopy")
    // If pbcopy's background server kept the pipe of $(…) open, the shell would wait for it
    // as long as it serves (until another copy): the test would kill it, and it would never
    // print.
    let shell = try await fixture.run(
      ["/bin/sh", "-c", "x=$(printf hi | \(pbcopy)); echo \"done:$x\""], timeout: .seconds(20))
    #expect(shell.status == 0, "\(shell.stderrText)")
    #expect(shell.stdoutText == "done:\n")
    #expect(try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "hi")
    try await resetClipboard(fixture)
  }

  @Test func pbpasteReadsXclipAndGTKOwnersWithoutABroker() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: false)
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("from xclip".utf8))
    let fromXclip = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["pbpaste"]).stdoutText) == "from xclip"
    }
    #expect(fromXclip)
    _ = try await DetachedThread.run { xclip.kill() }

    let gtk = try fixture.start(
      try await ScriptPeers.gtk(["own", "from gtk ünïcode", "UTF8_STRING", "text/html"]))
    #expect(await waitForOutput(gtk, "ready"))
    let paste = try await fixture.run(["pbpaste"])
    #expect(paste.status == 0)
    #expect(paste.stdoutText == "from gtk ünïcode")
    let html = try await fixture.run(["pbpaste", "--type", "text/html"])
    #expect(html.stdoutText == "from gtk ünïcode")
    let types = try await fixture.run(["pbpaste", "--list-types"])
    #expect(
      types.stdoutText.split(separator: "\n").prefix(2) == [
        "public.utf8-plain-text", "public.html",
      ])
    _ = try await DetachedThread.run { gtk.kill() }
  }

  @Test func multiFormatCopyIsServedToEveryPeerInOrder() async throws {
    try Peers.require("xsel")
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let html = fixture.runtime.appendingPathComponent("page.html")
    let plain = fixture.runtime.appendingPathComponent("page.txt")
    try Data("<b>bold</b>".utf8).write(to: html)
    try Data("bold".utf8).write(to: plain)
    let copy = try await fixture.run([
      "ferry", "copy", "--type", "text/html", html.path, "--type", "text", plain.path,
    ])
    #expect(copy.status == 0, "\(copy.stderrText)")
    let ready = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
        .stdoutText.hasPrefix("text/html\n")) ?? false
    }
    #expect(ready)
    let targets = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
      .stdoutText
      .split(separator: "\n").map(String.init)
    #expect(targets.first == "text/html")
    #expect(targets.firstIndex(of: "UTF8_STRING").map { $0 > 0 } == true)
    #expect(Array(targets.suffix(4)) == ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"])
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "text/html"])
        .stdoutText == "<b>bold</b>")
    #expect(try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "bold")
    #expect(try await fixture.run(["xsel", "-o", "-b"]).stdoutText == "bold")
    let gtk = try await fixture.run(
      try await ScriptPeers.gtk(["read", "text/html", "UTF8_STRING"]))
    #expect(gtk.stdoutText.contains("targets: text/html"), "\(gtk.stdoutText)")
    #expect(gtk.stdoutText.contains("text/html -> type=text/html"), "\(gtk.stdoutText)")
    #expect(gtk.stdoutText.contains("text=\(hex("bold"))"), "\(gtk.stdoutText)")
    let tk = try await fixture.run(try await ScriptPeers.tk(["read", "UTF8_STRING"]))
    #expect(tk.stdoutText.contains("UTF8_STRING -> text=\(hex("bold"))"), "\(tk.stdoutText)")
    #expect(try await fixture.run(["pbpaste", "--type", "html"]).stdoutText == "<b>bold</b>")
    try await fixture.stop()
  }

  @Test func gtkStoreIsSavedWithoutWaitingAndSurvivesTheApplication() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let script = fixture.runtime.appendingPathComponent("gtk_store.py")
    // GTK's store() ends at the manager's answer, or gives up after 10 s; the event handler
    // sees the answer only if it came while store() waited for it. How long it took is
    // printed, not asserted.
    try Data(
      """
      import gi, time
      gi.require_version('Gtk', '3.0'); gi.require_version('Gdk', '3.0')
      from gi.repository import Gtk, Gdk
      def on_event(event, data=None):
          if event.type == Gdk.EventType.SELECTION_NOTIFY and event.selection.selection.name() == 'CLIPBOARD_MANAGER':
              answer = event.selection.property
              print('manager answered %s' % (answer.name() if answer else 'None'), flush=True)
          Gtk.main_do_event(event)
      Gdk.Event.handler_set(on_event, None)
      clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
      clipboard.set_text('kept after gtk exits', -1)
      clipboard.set_can_store(None)
      start = time.monotonic(); clipboard.store()
      print('stored in %.3f' % (time.monotonic() - start), flush=True)

      """.utf8
    ).write(to: script)
    let python = try await Python.gtk
    let store = try await fixture.run([python, script.path], timeout: .seconds(30))
    #expect(store.status == 0, "\(store.stderrText)")
    #expect(
      store.stdoutText.contains("manager answered SAVE_TARGETS\nstored in"),
      "GTK's store ended by the manager's answer, not by giving up: \(store.stdoutText)")
    #expect(
      try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText
        == "kept after gtk exits")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "kept after gtk exits")
    try await fixture.stop()
  }

  @Test func contentOfAnXclipKilledWithSIGKILLStaysPasteable() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("outlives xclip".utf8))
    let mirrored = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["pbpaste"]).stdoutText) == "outlives xclip"
    }
    #expect(mirrored, "the broker copied what xclip offered")
    _ = try await DetachedThread.run { xclip.kill(signal: SIGKILL) }
    let served = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText)
        == "outlives xclip"
    }
    #expect(served, "after xclip died, the broker serves its copy")
    try await fixture.stop()
  }

  @Test func concealedContentNeverReachesWatchOutputOrDisk() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let watch = try await fixture.startWatch(["--json"])
    let secret = "hunter2-\(UUID().uuidString)"
    let copy = try await fixture.run(["pbcopy", "--sensitive"], input: Data(secret.utf8))
    #expect(copy.status == 0)
    #expect(await waitForOutput(watch, "\"concealed\":true"))
    #expect(
      try await fixture.run(["pbpaste"]).stdoutText == secret, "concealed content is still served")
    #expect(try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == secret)
    let targets = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"])
      .stdoutText
    #expect(targets.contains("x-kde-passwordManagerHint"))
    let watched = try await DetachedThread.run { watch.kill() }
    #expect(!watched.stdoutText.contains(secret))
    let log = try await fixture.stop()
    #expect(!log.contains(secret))
    let grep = try await fixture.run(["grep", "-r", "-l", secret, fixture.runtime.path])
    #expect(grep.stdoutText.isEmpty, "files holding the secret: \(grep.stdoutText)")
  }

  @Test func headlessBrokerRoundTripsWithoutADisplay() async throws {
    let fixture = try await BrokerFixture(display: nil, start: true)
    let copy = try await fixture.run(["pbcopy"], input: Data("no display here".utf8))
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "no display here")
    let status = try await fixture.run(["ferry", "status"])
    #expect(status.stdoutText.contains("headless"))
    let log = try await fixture.stop()
    #expect(log.contains("headless"))
  }

  @Test func pbpasteWithoutABrokerSaysWhenNobodyOwnsAndWhenTheOwnerNeverAnswers() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: false)
    // An owner that is stopped holds CLIPBOARD and never answers.
    let xclip = try fixture.start(
      ["xclip", "-i", "-quiet", "-selection", "clipboard"], input: Data("frozen".utf8))
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText) == "frozen"
      })
    Glibc.kill(xclip.pid, SIGSTOP)
    // Status 4 (timeout): pbpaste gave up by itself; one the test had to kill has none.
    let stalled = try await fixture.run(["pbpaste", "--timeout", "1"], timeout: .seconds(20))
    #expect(stalled.status == 4, "\(stalled.stderrText)")
    #expect(stalled.stderrText.split(separator: "\n").count == 1)
    Glibc.kill(xclip.pid, SIGCONT)
    _ = try await DetachedThread.run { xclip.kill() }

    // Once the owner is gone, nobody owns CLIPBOARD.
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await fixture.run(["xclip", "-o", "-selection", "clipboard"]))?.status != 0
      })
    let nobody = try await fixture.run(["pbpaste"])
    #expect(nobody.status == 1, "\(nobody.stderrText)")
    #expect(nobody.stdoutText.isEmpty)
  }

  @Test func theBrokerOutlivesItsDisplay() async throws {
    let server = try await XvfbServer.disposable()
    defer { server.stop() }
    let fixture = try await BrokerFixture(display: server.name, start: true)
    #expect(try await fixture.run(["pbcopy"], input: Data("kept".utf8)).status == 0)
    #expect(try await fixture.run(["xclip", "-o", "-selection", "clipboard"]).stdoutText == "kept")
    server.stop()
    let headless = await Deadline.wait(for: .seconds(10)) {
      (try? await fixture.run(["ferry", "status"]))?.stdoutText.contains("headless") == true
    }
    #expect(headless, "the broker says it serves the socket only")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "kept", "nothing is lost")
    let copy = try await fixture.run(["pbcopy"], input: Data("after".utf8))
    #expect(copy.status == 0, "pbcopy after the display went: \(copy.status) \(copy.stderrText)")
    let paste = try await fixture.run(["pbpaste"])
    #expect(paste.stdoutText == "after", "\(paste.status) \(paste.stderrText)")
    let log = try await fixture.stop()
    #expect(
      log.components(separatedBy: "the display went away").count == 2,
      "said once: \(log.suffix(800))")
  }

  @Test func aFullDiskCostsOnlyTheCopyThatDidNotFit() async throws {
    let fixture = try await BrokerFixture(display: nil, start: false)
    // A file-size limit stands in for a full disk: the spool's writes fail past 2 MiB, with
    // EFBIG where a full disk gives ENOSPC; the daemon ignores SIGXFSZ as it ignores SIGPIPE.
    try await fixture.startDaemon(wrappedIn: ["prlimit", "--fsize=\(2 << 20)"])
    #expect(try await fixture.run(["pbcopy"], input: Data("before".utf8)).status == 0)
    let large = Data(repeating: UInt8(ascii: "a"), count: 8 << 20)  // spooled: past 4 MiB
    let copy = try await fixture.run(["pbcopy"], input: large)
    #expect(copy.status == 6, "\(copy.stderrText)")
    #expect(copy.stderrText.split(separator: "\n").count == 1, "\(copy.stderrText)")
    #expect(copy.stderrText.contains("File too large"), "names the cause: \(copy.stderrText)")
    #expect(copy.stderrText.contains("the previous item stays"))
    let spool = fixture.runtime.appendingPathComponent(".cache/ferry/spool").path
    let leftovers = try await fixture.run(["find", spool, "-type", "f"])
    #expect(
      leftovers.stdoutText.isEmpty, "the part that fitted is removed: \(leftovers.stdoutText)")
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "before", "the previous item stays")
    #expect(
      try await fixture.run(["pbcopy"], input: Data("after".utf8)).status == 0, "the broker goes on"
    )
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "after")
    try await fixture.stop()
  }

  /// pbcopy's selection server reports a display it cannot open with a word for it, and
  /// pbcopy exits as without a display (3) with the server's own line — no matching of text.
  @Test func pbcopyWithoutABrokerOnADisplayThatDoesNotAnswerExits3() async throws {
    let unreachable = try await BrokerFixture(display: ":7919", start: false)
    let copy = try await unreachable.run(["pbcopy"], input: Data("x".utf8))
    #expect(copy.status == 3, "\(copy.stderrText)")
    #expect(copy.stderrText.contains("cannot open display :7919"), "\(copy.stderrText)")
    #expect(copy.stderrText.split(separator: "\n").count == 1)
  }

  @Test func failuresAreOneLineWithDistinctExitStatuses() async throws {
    let none = try await BrokerFixture(display: nil, start: false)
    let noDisplay = try await none.run(["pbpaste"])
    #expect(noDisplay.status == 3)
    #expect(noDisplay.stderrText.split(separator: "\n").count == 1)
    let empty = try await none.run(["pbcopy"], input: Data())
    #expect(empty.status == 1)
    #expect(empty.stderrText.hasPrefix("pbcopy: nothing to copy"))
    let badType = try await none.run(["pbcopy", "--type", "pnng"], input: Data("x".utf8))
    #expect(badType.status == 2)
    #expect(badType.stderrText.contains("'pnng'"))
    let notUTF8 = try await none.run(
      ["pbcopy", "--type", "text"], input: Data([0xFF, 0xFE, 0x00]))
    #expect(notUTF8.status == 5)
    let badBoard = try await none.run(["pbpaste", "-pboard", "no good!"])
    #expect(badBoard.status == 2)

    let fixture = try await BrokerFixture(display: nil, start: true)
    _ = try await fixture.run(["pbcopy"], input: Data("keep me".utf8))
    let emptyAgain = try await fixture.run(["pbcopy"], input: Data())
    #expect(emptyAgain.status == 1)
    #expect(
      try await fixture.run(["pbpaste"]).stdoutText == "keep me",
      "a failed copy leaves the previous item")
    let missing = try await fixture.run(["pbpaste", "--type", "png"])
    #expect(missing.status == 1)
    #expect(missing.stderrText.contains("public.png"))
    let second = try await fixture.run(["ferry", "daemon"])
    #expect(second.status == 0)
    #expect(second.stderrText.contains("already running"))
    try await fixture.stop()
  }
}
