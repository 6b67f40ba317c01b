import FerryTestSupport
import Foundation
import Testing

/// The checks `DesktopSessionTests` runs on each desktop's compositor alike.
enum DesktopChecks {
  /// A GTK 4 program's copy (`Tests/Peers/gtk4_rich_copy.py`), running.
  struct Gtk4Copy {
    var peer: PeerProcess
    var html: String
    var text: String
  }

  /// A wl-copy pastes back in wl-paste.
  static func wlCopyPastesInWlPaste(_ session: some DesktopSession) async throws {
    let text = "wayland on \(type(of: session).compositorName) \(UUID().uuidString)"
    let copied = try await session.runServing(["wl-copy", text])
    #expect(copied.status == 0, "wl-copy: \(copied.stderrText)")
    let pasted = try await session.run(["wl-paste", "--no-newline"])
    #expect(pasted.status == 0, "wl-paste: \(pasted.stderrText)")
    #expect(pasted.stdoutText == text)
  }

  /// A wl-copy pastes in `xclip -o` on the compositor's Xwayland.
  static func wlCopyPastesInX(_ session: some DesktopSession) async throws {
    let text = "wayland to X on \(type(of: session).compositorName) \(UUID().uuidString)"
    #expect(try await session.runServing(["wl-copy", text]).status == 0)
    var last: PeerProcess.Result?
    let pasted = await Deadline.wait(for: .seconds(20)) {
      last = try? await session.run(
        ["xclip", "-o", "-selection", "clipboard"], timeout: .seconds(5))
      return last?.stdoutText == text
    }
    #expect(
      pasted,
      "xclip -o: \(last?.stdoutText.debugDescription ?? "none") \(last?.stderrText ?? "")")
  }

  /// An `xclip -i` on the compositor's Xwayland pastes in wl-paste.
  static func xCopyPastesInWayland(_ session: some DesktopSession) async throws {
    let text = "X to wayland on \(type(of: session).compositorName) \(UUID().uuidString)"
    let copied = try await session.runServing(
      ["xclip", "-i", "-selection", "clipboard"], input: Data(text.utf8))
    #expect(copied.status == 0, "xclip -i: \(copied.stderrText)")
    var last: PeerProcess.Result?
    let pasted = await Deadline.wait(for: .seconds(20)) {
      last = try? await session.run(["wl-paste", "--no-newline"], timeout: .seconds(5))
      return last?.stdoutText == text
    }
    #expect(
      pasted,
      "wl-paste: \(last?.stdoutText.debugDescription ?? "none") \(last?.stderrText ?? "")")
  }

  /// Starts the GTK 4 program copying HTML and text, and waits until it says it has copied.
  static func gtk4Copy(in session: some DesktopSession) async throws -> Gtk4Copy {
    let python = try await Python.gtk4
    let id = UUID().uuidString.prefix(8)
    let html = "<p>rich <b>GTK 4</b> \(id)</p>"
    let text = "rich GTK 4 \(id)"
    let script = Tools.peersDirectory.appendingPathComponent("gtk4_rich_copy.py").path
    let peer = try await session.peer([python, "-u", script, html, text])
    let copied = await peer.output("copied", timeout: .seconds(30))
    if !copied { peer.terminate() }
    try #require(copied, "gtk4_rich_copy did not copy: \(peer.errorSoFar)")
    return Gtk4Copy(peer: peer, html: html, text: text)
  }

  /// Waits until wl-paste gives the GTK 4 copy's HTML and its text.
  static func pastes(_ copy: Gtk4Copy, in session: some DesktopSession) async throws {
    var last: PeerProcess.Result?
    let html = await Deadline.wait(for: .seconds(20)) {
      last = try? await session.run(
        ["wl-paste", "--no-newline", "--type", "text/html"], timeout: .seconds(5))
      return last?.stdoutText == copy.html
    }
    let seen = "\(last?.stdoutText.debugDescription ?? "none") \(last?.stderrText ?? "")"
    #expect(html, "wl-paste --type text/html: \(seen); gtk4_rich_copy: \(copy.peer.errorSoFar)")
    let text = try await session.run(
      ["wl-paste", "--no-newline", "--type", "text/plain;charset=utf-8"])
    #expect(text.stdoutText == copy.text)
  }
}
