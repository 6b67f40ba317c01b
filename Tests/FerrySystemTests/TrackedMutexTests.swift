import FerrySystem
import Foundation
import Testing

/// ``TrackedMutex``: `Synchronization.Mutex` with its hand-overs shown to ThreadSanitizer.
///
/// Under `Scripts/test --sanitize thread`, the contended test below is what tells the two
/// apart: with `Mutex` in its place, ThreadSanitizer reports each contended hand-over as a
/// race on `count` (the futex inside Synchronization is invisible to it) and the test process
/// exits 66. In an ordinary run it checks that the lock excludes.
@Suite struct TrackedMutexTests {
  /// A counter outside the lock, ordered only by it, as the state the product's locks guard
  /// (the type registry's overlay, the error trap's tables) is.
  final class Shared: @unchecked Sendable {
    let lock = TrackedMutex(())
    var count = 0
    var holders = 0
    var overlaps = 0
  }

  @Test func contendedHoldersTakeTurnsAndSeeEachOthersWrites() {
    let shared = Shared()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<20_000 {
        shared.lock.withLock { _ in
          shared.holders += 1
          if shared.holders > 1 { shared.overlaps += 1 }
          shared.count += 1
          shared.holders -= 1
        }
      }
    }
    #expect(shared.overlaps == 0)
    #expect(shared.count == 80_000)
  }

  @Test func theGuardedValueIsWhatTheLastHolderLeft() throws {
    let names = TrackedMutex<[String]>([])
    names.withLock { $0.append("first") }
    names.withLock { $0.append("second") }
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try names.withLock { (value: inout [String]) throws(Refused) in
        value.append("third")
        throw Refused()
      }
    }
    #expect(names.withLock { $0 } == ["first", "second", "third"])
  }
}
