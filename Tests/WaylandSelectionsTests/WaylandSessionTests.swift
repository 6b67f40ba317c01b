import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// FerryTestSupport's headless Wayland session, proved with real peers: wl-clipboard's copy
/// and paste on both selections, the offered types in order, the test process's own reach to
/// the socket, XWayland for X peers, and a stop that leaves nothing behind.
@Suite(.serialized, .skipsWithoutPeers) struct WaylandSessionTests {
  let session: WaylandSession

  init() async throws {
    session = try await WaylandSession.dedicated("WaylandSessionTests")
  }

  @Test func aCopiedTextPastesBack() async throws {
    let text = "ferry on wayland \(UUID().uuidString)"
    let copied = try await session.runServing(["wl-copy", text])
    #expect(copied.status == 0, "wl-copy: \(copied.stderrText)")
    let pasted = try await session.run(["wl-paste", "--no-newline"])
    #expect(pasted.status == 0, "wl-paste: \(pasted.stderrText)")
    #expect(pasted.stdoutText == text)
  }

  /// wl-copy buffers standard input in a file under /tmp, which the compositor's user may not
  /// write outside the session's namespace.
  @Test func aCopyFromStandardInputPastesBack() async throws {
    let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let copied = try await session.runServing(
      ["wl-copy", "--type", "application/x-ferry-bytes"], input: bytes)
    #expect(copied.status == 0, "wl-copy: \(copied.stderrText)")
    let pasted = try await session.run(["wl-paste", "--type", "application/x-ferry-bytes"])
    #expect(pasted.status == 0, "wl-paste: \(pasted.stderrText)")
    #expect(pasted.stdout == bytes)
  }

  /// wl-paste lists the types in the order the owner offered them: wl-copy 2.1 offers the
  /// given type, then the text types and the X11 target names it adds for any text.
  @Test func theOfferedTypesAreListedInOrder() async throws {
    let copied = try await session.runServing(["wl-copy", "--type", "text/html", "<b>ferry</b>"])
    #expect(copied.status == 0, "wl-copy: \(copied.stderrText)")
    let listed = try await session.run(["wl-paste", "--list-types"])
    #expect(listed.status == 0, "wl-paste: \(listed.stderrText)")
    #expect(
      listed.stdoutText.split(separator: "\n").map(String.init)
        == ["text/html", "text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING"])
    let html = try await session.run(["wl-paste", "--no-newline", "--type", "text/html"])
    #expect(html.stdoutText == "<b>ferry</b>")
  }

  @Test func primaryIsASelectionOfItsOwn() async throws {
    let primary = "primary \(UUID().uuidString)"
    let clipboard = "clipboard \(UUID().uuidString)"
    #expect(try await session.runServing(["wl-copy", "--primary", primary]).status == 0)
    #expect(try await session.runServing(["wl-copy", clipboard]).status == 0)
    let pastedPrimary = try await session.run(["wl-paste", "--primary", "--no-newline"])
    #expect(pastedPrimary.status == 0, "wl-paste --primary: \(pastedPrimary.stderrText)")
    #expect(pastedPrimary.stdoutText == primary)
    #expect(try await session.run(["wl-paste", "--no-newline"]).stdoutText == clipboard)
    let types = try await session.run(["wl-paste", "--primary", "--list-types"])
    #expect(types.stdoutText.split(separator: "\n").first == "text/plain")
  }

  /// A peer that fails says so: its status and its standard error come back.
  @Test func aFailingPeerReportsItsStatusAndError() async throws {
    let refused = try await session.runServing(["wl-copy", "--no-such-option"])
    #expect(refused.status != 0)
    #expect(!refused.stderrText.isEmpty)
  }

  /// The test process, and a `ferry` it starts, run as themselves (root on CI) and reach the
  /// compositor through ``WaylandSession/environment``.
  @Test func theTestProcessReachesTheCompositor() async throws {
    let text = "from the session's user \(UUID().uuidString)"
    #expect(try await session.runServing(["wl-copy", text]).status == 0)
    let pasted = try await DetachedThread.run {
      try PeerProcess.run(
        ["wl-paste", "--no-newline"], display: nil, environment: session.environment)
    }
    #expect(pasted.status == 0, "wl-paste as this process's user: \(pasted.stderrText)")
    #expect(pasted.stdoutText == text)
    // An absolute WAYLAND_DISPLAY needs no XDG_RUNTIME_DIR (what wl_display_connect(path) does).
    let absolute = try await DetachedThread.run {
      try PeerProcess.run(
        ["wl-paste", "--no-newline"], display: nil,
        environment: ["WAYLAND_DISPLAY": session.socketPath, "XDG_RUNTIME_DIR": "/nonexistent"])
    }
    #expect(absolute.stdoutText == text, "wl-paste by the socket's path: \(absolute.stderrText)")
  }

  /// A virtual keyboard works: what gives a GTK peer the input serial it needs to copy.
  @Test func aVirtualKeyboardTypes() async throws {
    let typed = try await session.run(["wtype", "-k", "Shift_L"])
    #expect(typed.status == 0, "wtype: \(typed.stderrText)")
  }

  /// X peers reach the session's XWayland: one as the session's user owns CLIPBOARD, and the
  /// test process (another user when it runs as root) reads it.
  @Test func xPeersShareTheSessionsXWayland() async throws {
    let display = try await DetachedThread.run { try session.xDisplay() }
    #expect(display.hasPrefix(":"))
    let text = "x11 under xwayland \(UUID().uuidString)"
    let owner = try await session.peer(
      ["xclip", "-quiet", "-in", "-selection", "clipboard"], input: Data(text.utf8), x11: true)
    defer { owner.terminate() }
    var read = ""
    let seen = await Deadline.wait(for: .seconds(15)) {
      let result = try? await DetachedThread.run {
        try PeerProcess.run(
          ["xclip", "-out", "-selection", "clipboard"], display: display, timeout: .seconds(5))
      }
      read = result?.stdoutText ?? ""
      return read == text
    }
    #expect(seen, "xclip -out read \(read.debugDescription); xclip -in: \(owner.errorSoFar)")
  }

  /// stop() ends the compositor's whole process group (XWayland in it) and removes the
  /// session's directory.
  @Test func stoppingEndsEverythingAndCleansUp() async throws {
    let disposable = try await WaylandSession.disposable()
    _ = try await DetachedThread.run { try disposable.xDisplay() }
    let group = disposable.processIdentifier
    // sway and the XWayland it started.
    #expect(liveProcesses(inGroup: group).count >= 2)
    #expect(FileManager.default.fileExists(atPath: disposable.socketPath))
    try await DetachedThread.run { disposable.stop() }
    let ended = await Deadline.wait(for: .seconds(10)) { liveProcesses(inGroup: group).isEmpty }
    #expect(ended, "still running in the session's group: \(liveProcesses(inGroup: group))")
    #expect(!FileManager.default.fileExists(atPath: disposable.directory))
  }
}

/// The processes of process group `group` that have not ended (a zombie not yet reaped by
/// init does not count).
func liveProcesses(inGroup group: Int32) -> [Int32] {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap { Int32($0) }.filter { pid in
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return false }
    // After the command's closing parenthesis: state, parent, process group, …
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
  }
}
