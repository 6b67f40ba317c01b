import FerrySystem
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@testable import X11Selections

/// A display that goes away while its thread is inside Xlib: Xlib finds the dead socket
/// itself, instead of our poll finding the hang-up first. Its default handler exits the
/// process; ours ends only the display's thread and tells every waiter.
@Suite(.skipsWithoutPeers) struct DisplayLossTests {
  /// Not under AddressSanitizer: the display's thread ends inside Xlib (`pthread_exit` from
  /// the exit handler), by design, so what its frames held is never released, and
  /// LeakSanitizer reports the session and its loop at the end of the test process.
  @Test(
    .disabled(
      if: SanitizedRun.sanitizer == "address", "the X thread ends in pthread_exit by design"))
  func aServerThatDiesDuringAnXlibCallCostsOnlyThatDisplay() async throws {
    let server = try await XvfbServer.disposable()
    defer { server.stop() }
    let name = server.name
    let display = try await DetachedThread.run { try X11Display(name: name) }
    let told = TrackedMutex(false)
    display.onConnectionLost { told.withLock { $0 = true } }

    // Keep the X thread busy until the server has exited (not a fixed half second: a loaded
    // machine took longer to stop it, and the call then succeeded), then make it call Xlib:
    // a round trip on a closed socket. The server stops only once the X thread is inside the
    // call: before, its poll would find the hang-up first.
    let inside = TrackedMutex(false)
    let serverGone = TrackedMutex(false)
    let lastCall = Task {
      try await display.loop.perform { session in
        inside.withLock { $0 = true }
        Deadline.wait(for: .seconds(30)) { serverGone.withLock { $0 } }
        return session.connection.selectionOwner(session.connection.atom(.clipboard))
      }
    }
    #expect(
      await Deadline.wait(for: .seconds(30)) { inside.withLock { $0 } },
      "the X thread took the call")
    try await DetachedThread.run { server.stop() }  // returns once the server has exited
    serverGone.withLock { $0 = true }
    await #expect(throws: X11Error.self) { _ = try await lastCall.value }
    #expect(told.withLock { $0 }, "waiters are told the connection is lost")
    #expect(display.loop.isConnectionLost)
    // The process is still here (this line runs), and the display refuses further work.
    await #expect(throws: X11Error.self) { _ = try await display.owner(of: .primary) }
  }
}
