import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// FerryTestSupport's desktop sessions, proved with real peers and no Ferry: on nested Mutter
/// and on virtual KWin, wl-clipboard's copy and paste, the Xwayland bridge both ways, a GTK 4
/// Wayland program's copy of HTML and text, the globals each compositor offers, and a stop
/// that leaves nothing behind. What each compositor does differently is pinned here.
@Suite struct DesktopSessionTests {
  @Suite(.serialized, .skipsWithoutPeers) struct Mutter {
    let session: MutterSession

    init() async throws {
      session = try await MutterSession.dedicated("DesktopSessionTests")
    }

    /// No data-control: wl-clipboard takes focus with a surface of its own to copy and paste.
    @Test func itOffersNoDataControl() async throws {
      let globals = try await session.globals()
      #expect(globals["zwlr_data_control_manager_v1"] == nil, "\(globals)")
      #expect(globals["ext_data_control_manager_v1"] == nil, "\(globals)")
      #expect(globals["wl_data_device_manager"] == 3, "\(globals)")
      #expect(globals["zwp_primary_selection_device_manager_v1"] == 1, "\(globals)")
    }

    @Test func aWlCopyPastesInWlPaste() async throws {
      try await DesktopChecks.wlCopyPastesInWlPaste(session)
    }

    /// Mutter hands the offer on last type first: wl-copy 2.1 offers `text/html`, then the text
    /// types and X11 target names it adds (as sway lists them, `WaylandSessionTests`).
    @Test func wlPasteListsTheOfferedTypesReversed() async throws {
      let html = "<b>mutter \(UUID().uuidString)</b>"
      #expect(try await session.runServing(["wl-copy", "--type", "text/html", html]).status == 0)
      let listed = try await session.run(["wl-paste", "--list-types"])
      #expect(listed.status == 0, "wl-paste: \(listed.stderrText)")
      #expect(
        lines(listed.stdoutText)
          == [
            "UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8", "text/plain", "text/html",
          ])
      let pasted = try await session.run(["wl-paste", "--no-newline", "--type", "text/html"])
      #expect(pasted.stdoutText == html)
    }

    /// Mutter's Xwayland bridge needs no X window: a Wayland copy is X's CLIPBOARD at once,
    /// its targets every type plus `UTF8_STRING`, `STRING`, `TARGETS`, `TIMESTAMP`.
    @Test func aWlCopyPastesInX() async throws {
      try await DesktopChecks.wlCopyPastesInX(session)
      let targets = try await session.run([
        "xclip", "-o", "-selection", "clipboard", "-t", "TARGETS",
      ])
      #expect(
        lines(targets.stdoutText)
          == [
            "UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8", "text/plain", "TARGETS",
            "TIMESTAMP",
          ])
    }

    @Test func anXCopyPastesInWayland() async throws {
      try await DesktopChecks.xCopyPastesInWayland(session)
      let listed = try await session.run(["wl-paste", "--list-types"])
      #expect(lines(listed.stdoutText) == ["text/plain;charset=utf-8", "UTF8_STRING", "TARGETS"])
    }

    /// GTK 4's copy is taken only with a key press's serial after another client's copy
    /// (`MutterSession.pressKey()`); once the program has quit, Mutter's clipboard manager
    /// serves one type of it.
    @Test func aGtk4CopyOfHTMLAndTextPastes() async throws {
      // Another client's copy first, so that the GTK copy's serial matters.
      #expect(try await session.runServing(["wl-copy", "before GTK"]).status == 0)
      let copy = try await DesktopChecks.gtk4Copy(in: session)
      defer { copy.peer.terminate() }
      try await session.pressKey()
      #expect(await copy.peer.output("copied again"), "gtk4_rich_copy: \(copy.peer.errorSoFar)")
      try await DesktopChecks.pastes(copy, in: session)
      let listed = try await session.run(["wl-paste", "--list-types"])
      #expect(lines(listed.stdoutText) == ["text/plain;charset=utf-8", "text/html"])

      let ended = await copy.peer.stopped()
      #expect(ended.status == 0, "gtk4_rich_copy: \(ended.stderrText)")
      let restored = await Deadline.wait(for: .seconds(20)) {
        let listed = try? await session.run(["wl-paste", "--list-types"])
        return lines(listed?.stdoutText ?? "") == ["text/plain;charset=utf-8"]
      }
      #expect(restored, "Mutter's clipboard manager serves the text alone")
      #expect(try await session.run(["wl-paste", "--no-newline"]).stdoutText == copy.text)
    }

    /// stop() ends every process of the session (the compositor's group: dbus-daemon, Mutter,
    /// Xwayland, the keeper) and the host Xvfb, and removes the session's directory and
    /// Mutter's X lock files.
    @Test func stoppingEndsEverythingAndCleansUp() async throws {
      let disposable = try await MutterSession.disposable()
      let host = disposable.host.processIdentifier
      #expect(sessionProcesses(disposable).count >= 4, "\(sessionProcesses(disposable))")
      try await DetachedThread.run { disposable.stop() }
      // stop() returns once every process has ended, not only the group's leader.
      #expect(sessionProcesses(disposable).isEmpty, "left: \(sessionProcesses(disposable))")
      #expect(kill(host, 0) != 0, "the host Xvfb still runs")
      #expect(!FileManager.default.fileExists(atPath: disposable.directory))
      #expect(
        !FileManager.default.fileExists(atPath: "/tmp/.X\(disposable.xDisplay.dropFirst())-lock"))
    }
  }

  @Suite(.serialized, .skipsWithoutPeers) struct KWin {
    let session: KWinSession

    init() async throws {
      session = try await KWinSession.dedicated("DesktopSessionTests")
    }

    @Test func itOffersDataControlVersion2() async throws {
      let globals = try await session.globals()
      #expect(globals["zwlr_data_control_manager_v1"] == 2, "\(globals)")
      #expect(globals["wl_data_device_manager"] == 3, "\(globals)")
      #expect(globals["zwp_primary_selection_device_manager_v1"] == 1, "\(globals)")
    }

    @Test func aWlCopyPastesInWlPaste() async throws {
      try await DesktopChecks.wlCopyPastesInWlPaste(session)
    }

    /// KWin keeps the order of the offer.
    @Test func wlPasteListsTheOfferedTypesInOrder() async throws {
      let html = "<b>kwin \(UUID().uuidString)</b>"
      #expect(try await session.runServing(["wl-copy", "--type", "text/html", html]).status == 0)
      let listed = try await session.run(["wl-paste", "--list-types"])
      #expect(
        lines(listed.stdoutText)
          == [
            "text/html", "text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING",
          ])
    }

    /// KWin 5.27 bridges the clipboard to Xwayland only while an X window is active.
    @Test func aWlCopyPastesInXWhileAnXWindowIsActive() async throws {
      let window = try await session.activeXWindow()
      defer { window.terminate() }
      try await DesktopChecks.wlCopyPastesInX(session)
    }

    @Test func anXCopyPastesInWaylandWhileAnXWindowIsActive() async throws {
      let window = try await session.activeXWindow()
      defer { window.terminate() }
      try await DesktopChecks.xCopyPastesInWayland(session)
    }

    /// KWin 5.27 gives no primary selection through data-control: wl-clipboard refuses both
    /// ways, with no broker involved.
    @Test func thePrimarySelectionIsRefusedThroughDataControl() async throws {
      let copied = try await session.runServing(["wl-copy", "--primary", "primary on KWin"])
      #expect(copied.status != 0)
      #expect(copied.stderrText.contains("does not seem to support primary selection"))
      let pasted = try await session.run(["wl-paste", "--primary", "--no-newline"])
      #expect(pasted.status != 0)
      #expect(pasted.stderrText.contains("does not seem to support primary selection"))
      #expect(pasted.stdoutText.isEmpty)
    }

    /// KWin takes GTK 4's copy as the window becomes active (serial 0), in the offer's order.
    @Test func aGtk4CopyOfHTMLAndTextPastes() async throws {
      #expect(try await session.runServing(["wl-copy", "before GTK"]).status == 0)
      let copy = try await DesktopChecks.gtk4Copy(in: session)
      defer { copy.peer.terminate() }
      try await DesktopChecks.pastes(copy, in: session)
      let listed = try await session.run(["wl-paste", "--list-types"])
      #expect(lines(listed.stdoutText) == ["text/html", "text/plain;charset=utf-8"])
      let ended = await copy.peer.stopped()
      #expect(ended.status == 0, "gtk4_rich_copy: \(ended.stderrText)")
    }

    /// The GTK 4 program reads its standard input once it has copied: a line given at the
    /// start ends it right after the copy, with status 0 (what a test does to make the
    /// program quit while a broker watches).
    @Test func aLineOnStandardInputEndsTheGtk4ProgramOnceItHasCopied() async throws {
      let python = try await Python.gtk4
      let script = Tools.peersDirectory.appendingPathComponent("gtk4_rich_copy.py").path
      let peer = try await session.peer(
        [python, "-u", script, "<i>quit</i>", "quit"], input: Data("quit\n".utf8))
      let ended = await peer.finished(timeout: .seconds(30))
      #expect(ended.status == 0, "gtk4_rich_copy: \(ended.stderrText)")
      #expect(lines(ended.stdoutText) == ["copied"])
    }

    /// On an empty clipboard KWin 5.27 never sends data-control's first `selection` event:
    /// wl-paste waits for it rather than say "Nothing is copied", and a data-control client
    /// must not wait for it either.
    @Test func anEmptyClipboardLeavesWlPasteWaiting() async throws {
      let empty = try await KWinSession.disposable()
      defer { empty.stop() }
      let waiting = try await empty.peer(["wl-paste", "--list-types"])
      let ended = await Deadline.wait(for: .seconds(3)) { !waiting.process.isRunning }
      let pasted = await waiting.stopped()
      #expect(
        !ended, "wl-paste ended (\(pasted.status)): \(pasted.stdoutText) \(pasted.stderrText)")
      #expect(try await empty.runServing(["wl-copy", "now something"]).status == 0)
      #expect(try await empty.run(["wl-paste", "--no-newline"]).stdoutText == "now something")
    }

    /// stop() ends every process of the session — the compositor's group and the keeper KWin
    /// started detached — and removes the session's directory and its X display's sockets.
    @Test func stoppingEndsEverythingAndCleansUp() async throws {
      let disposable = try await KWinSession.disposable()
      #expect(sessionProcesses(disposable).count >= 4, "\(sessionProcesses(disposable))")
      let number = disposable.xDisplay.dropFirst()
      try await DetachedThread.run { disposable.stop() }
      // stop() returns once every process has ended, not only the group's leader.
      #expect(sessionProcesses(disposable).isEmpty, "left: \(sessionProcesses(disposable))")
      #expect(!FileManager.default.fileExists(atPath: disposable.directory))
      #expect(!FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"))
      #expect(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"))
    }
  }
}

/// The lines of a peer's output.
private func lines(_ text: String) -> [String] {
  text.split(separator: "\n").map(String.init)
}

/// The processes of `session` still running (zombies aside): those whose environment names
/// its `XDG_RUNTIME_DIR`, which every process the compositor starts inherits, whatever group
/// it runs in.
func sessionProcesses(_ session: some DesktopSession) -> [String] {
  let mark = Data("XDG_RUNTIME_DIR=\(session.runtimeDirectory)".utf8)
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.filter { Int32($0) != nil }.compactMap { pid in
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")"),
      stat[stat.index(after: end)...].split(separator: " ").first != "Z",
      let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
      environment.split(separator: 0).contains(where: { $0.elementsEqual(mark) })
    else { return nil }
    let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?"
    return "\(pid) \(command.trimmingCharacters(in: .whitespacesAndNewlines))"
  }
}
