import Dispatch
import FerrySystem
import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 27: an owner answers whatever else the process does with Swift concurrency's pool.
///
/// A clean-clone run once timed out reading `STRING` from Ferry's own owner after 21 s: the
/// owner produced the Latin-1 text in a task on the global pool (one thread per core), and
/// other tests held both threads with blocking waits. Production now runs on threads of its
/// own (`ProductionExecutor`); this test holds every thread of the pool while xclip asks.
@Suite struct StarvedPoolOwnerTests {
  /// In a process of its own (an exit test), so that holding its whole pool stalls no other
  /// test: the owner still answers `STRING`, a conversion made in a task.
  @Test(.skipsWithoutPeers("Xvfb", "xclip"))
  func anOwnerAnswersWhileEveryThreadOfThePoolIsBlocked() async {
    await #expect(processExitsWith: .success) {
      guard let xvfb = try? await XvfbServer.disposable() else { exit(3) }
      guard let display = try? X11Display(name: xvfb.name) else { exit(4) }
      let selection = Selection.primary  // the server is this process's own
      let item = PasteboardItem(representations: [.data(Data("héllo ÿ".utf8), type: .utf8PlainText)]
      )
      guard (try? await display.own(selection, item: item)) != nil else { exit(5) }
      let threads = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
      let release = DispatchSemaphore(value: 0)
      let blocked = DispatchSemaphore(value: 0)
      // Off the pool, so that every thread of it is free for a blocker; the blockers start
      // once this task has left its thread.
      let reply = try? await DetachedThread.run { () -> PeerProcess.Result? in
        for _ in 0..<threads {
          Task.detached {
            blocked.signal()
            release.wait()
          }
        }
        defer { for _ in 0..<threads { release.signal() } }
        for _ in 0..<threads where blocked.wait(timeout: .now() + 30) == .timedOut { return nil }
        // Now no task of the process can run until the blockers are released: a task started
        // now must not have run by the time xclip has its answer, or the pool was not full.
        let sentinel = DispatchSemaphore(value: 0)
        Task.detached { sentinel.signal() }
        let reply = try? PeerProcess.run(
          ["xclip", "-o", "-selection", "primary", "-t", "STRING"], display: xvfb.name,
          timeout: .seconds(20))
        return sentinel.wait(timeout: .now()) == .timedOut ? reply : nil
      }
      display.close()
      xvfb.stop()
      guard let reply = reply ?? nil else { exit(6) }  // the pool could not be filled, or xclip did not run
      // h é l l o space ÿ, in ISO 8859-1.
      exit(
        reply.status == 0 && reply.stdout == Data([0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0xFF])
          ? 0 : 1)
    }
  }
}
