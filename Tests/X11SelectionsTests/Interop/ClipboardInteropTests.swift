import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing
import X11Selections

/// Interop with peers that only know `CLIPBOARD`, `PRIMARY` and `SECONDARY` (xclip, xsel, Tk's
/// clipboard): every test in here (the nested suites are in `ClipboardInteropTests+*.swift`)
/// uses `CLIPBOARD` on the shared Xvfb, so they run one at a time. Tests with peers that take
/// any selection name (our probe, GTK, Ferry itself) live outside and run in parallel.
///
/// Each test leaves `CLIPBOARD` without an owner: displays are closed, peers are stopped.
@Suite(.serialized, .skipsWithoutPeers) struct ClipboardInteropTests {
  static let clipboard = Selection.clipboard

  /// Waits until `CLIPBOARD` has no owner, and returns `.none` for ``waitForPeer(_:previous:_:)``:
  /// each test leaves it so, but the previous test's peer, sent SIGTERM by a `defer` and not
  /// waited for, may own it a moment longer. Comparing with its window instead would not do:
  /// a new client can get a dead client's slot in the server, and so the same window id
  /// (a run under load once read TARGETS from the dying owner and was refused).
  static func freeClipboard(_ display: X11Display) async throws -> XWindow {
    guard await display.waitForNoOwner(of: clipboard, timeout: .seconds(20)) else {
      let owner = try await display.owner(of: clipboard)
      Issue.record("CLIPBOARD is still owned by window \(owner) from an earlier test")
      throw PeerDidNotStart()
    }
    return .none
  }

  /// Waits until a peer started after `previous` owned `CLIPBOARD` has taken it.
  static func waitForPeer(_ display: X11Display, previous: XWindow, _ peer: PeerProcess)
    async throws
  {
    let owned = await display.waitForOwner(of: clipboard, other: previous)
    if !owned {
      let result = await peer.stopped()
      Issue.record("the peer never took CLIPBOARD: \(result.stdoutText) \(result.stderrText)")
      throw PeerDidNotStart()
    }
  }
}
