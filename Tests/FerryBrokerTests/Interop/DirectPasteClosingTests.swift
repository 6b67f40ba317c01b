import FerryCommandLine
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 17, found by ThreadSanitizer: `pbpaste --list-types` without a broker printed
/// nothing once, dying of SIGSEGV in `XCloseDisplay` at exit. Its display was closed by the
/// last release of a task's closure, on a concurrency thread, after `pbpaste` had printed and
/// called `exit`; libX11's exit-time destructor freed the lock `XCloseDisplay` takes, and the
/// crash lost the buffered output. A paste without a broker now closes its display before it
/// returns.
@Suite struct DirectPasteClosingTests {
  /// The sockets this process holds open (the X connection is one).
  static func openSockets() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter {
      ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "")
        .hasPrefix("socket:")
    }.count
  }

  /// In a process of its own, which may set its environment: no broker, a private display
  /// with xclip owning CLIPBOARD; each listing returns with its X connection already closed.
  @Test(.skipsWithoutPeers("Xvfb", "xclip"))
  func aListingWithoutABrokerHasClosedItsDisplayWhenItReturns() async {
    await #expect(processExitsWith: .success) {
      guard let xvfb = try? await XvfbServer.disposable(),
        let owner = try? PeerProcess(
          ["xclip", "-i", "-quiet", "-selection", "clipboard"], display: xvfb.name,
          input: Data("hi".utf8))
      else { exit(3) }
      setenv("DISPLAY", xvfb.name, 1)
      setenv("FERRY_SOCKET", "/nonexistent/ferry-test/broker.sock", 1)
      setenv("FERRY_OSC52", "never", 1)
      let request = PasteRequest(
        pasteboard: "general", preferences: ["public.utf8-plain-text"], timeout: .seconds(10))
      // xclip owns the selection once it answers.
      guard
        await Deadline.wait(for: .seconds(20), { (try? Paster.types(request))?.isEmpty == false })
      else { exit(4) }
      let before = Self.openSockets()
      for _ in 0..<20 {
        guard let types = try? Paster.types(request), types.contains("public.utf8-plain-text")
        else { exit(5) }
        // Before the fix the display was still open here: closing it was left to a task.
        guard Self.openSockets() == before else { exit(1) }
      }
      _ = owner.kill()
      xvfb.stop()
      exit(0)
    }
  }
}
