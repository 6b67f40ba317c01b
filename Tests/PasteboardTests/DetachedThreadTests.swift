import FerrySystem
import Foundation
import Testing

/// `DetachedThread`: the POSIX threads behind the X connection and child-process waits.
@Suite struct DetachedThreadTests {
  @Test func theBodyRunsOnAThreadOfItsOwnUnderItsName() async throws {
    let seen = TrackedMutex<(thread: pthread_t, name: String)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let started = DetachedThread.start(name: "ferry-test-thread-long-name") {
      seen.withLock { $0 = (pthread_self(), currentThreadName() ?? "") }
      done.signal()
    }
    #expect(started)
    #expect(done.wait(timeout: .now() + 10) == .success, "the body ran")
    let (thread, name) = try #require(seen.withLock { $0 })
    #expect(pthread_equal(thread, pthread_self()) == 0, "not on the caller's thread")
    #expect(name == "ferry-test-thre", "the name, cut to the 15 bytes Linux keeps")
  }

  @Test func manyThreadsEachRunOnce() {
    let count = TrackedMutex(0)
    let group = DispatchGroup()
    for _ in 0..<64 {
      group.enter()
      #expect(
        DetachedThread.start(name: "ferry-many") {
          count.withLock { $0 += 1 }
          group.leave()
        })
    }
    #expect(group.wait(timeout: .now() + 10) == .success)
    #expect(count.withLock { $0 } == 64)
  }
}

/// The calling thread's name, from /proc (the C library's getter is not in Glibc's Swift
/// module).
private func currentThreadName() -> String? {
  guard let text = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) else {
    return nil
  }
  return text.trimmingCharacters(in: .whitespacesAndNewlines)
}
