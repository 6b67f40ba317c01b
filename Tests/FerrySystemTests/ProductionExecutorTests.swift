import Foundation
import Testing

@testable import FerrySystem

/// The threads an owner produces its answers on, apart from Swift's global pool.
@Suite struct ProductionExecutorTests {
  /// The calling thread's name.
  static func threadName() -> String {
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return name.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A task that prefers the executor starts on its threads and comes back to them after an
  /// await resumed by another thread (the timer thread), and so do its child tasks.
  @Test func aTaskThatPrefersItRunsAndResumesOnItsThreads() async throws {
    let names = try await Task(executorPreference: ProductionExecutor.shared) {
      var names = [Self.threadName()]
      try await Task.sleep(for: .milliseconds(1), clock: .timerThread)
      names.append(Self.threadName())
      names.append(
        await withTaskGroup(of: String.self) { group in
          group.addTask { Self.threadName() }
          return await group.next() ?? ""
        })
      return names
    }.value
    #expect(names.count == 3)
    #expect(names.allSatisfy { $0.hasPrefix("ferry-produce") }, "\(names)")
  }

  /// One thread runs the jobs in the order they came, past the queue's compaction (64).
  @Test func oneThreadRunsItsJobsInTheOrderTheyCame() async {
    let executor = ProductionExecutor(threads: 1)
    let order = Order()
    let tasks = (0..<200).map { index in
      Task(executorPreference: executor) { order.indices.withLock { $0.append(index) } }
    }
    for task in tasks { await task.value }
    #expect(order.indices.withLock { $0 } == Array(0..<200))
  }

  /// The indices of the jobs, in the order they ran.
  final class Order: Sendable {
    let indices = TrackedMutex<[Int]>([])
  }
}
