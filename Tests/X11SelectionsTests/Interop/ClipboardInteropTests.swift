import FerryTestSupport
import Foundation
import Testing
import X11Selections

/// Interop with peers that only know `CLIPBOARD`, `PRIMARY` and `SECONDARY` (xclip, xsel, Tk's
/// clipboard): every test in here (the nested suites are in `ClipboardInteropTests+*.swift`)
/// uses `CLIPBOARD` on the shared Xvfb, so they run one at a time. Tests with peers that take
/// any selection name (our probe, GTK, Ferry itself) live outside and run in parallel.
///
/// Each test leaves `CLIPBOARD` without an owner: displays are closed, peers are stopped.
@Suite(.serialized) struct ClipboardInteropTests {
  static let clipboard = Selection.clipboard

  /// Waits until a peer started after `previous` owned `CLIPBOARD` has taken it.
  static func waitForPeer(_ display: X11Display, previous: XWindow, _ peer: PeerProcess) async throws {
    let owned = await display.waitForOwner(of: clipboard, other: previous)
    if !owned {
      let result = await peer.stopped()
      Issue.record("the peer never took CLIPBOARD: \(result.stdoutText) \(result.stderrText)")
      throw PeerDidNotStart()
    }
  }
}
