import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Threads of their own for producing what a selection owner serves: a pasteboard item's
/// providers and conversions, an X owner's target table and payloads.
///
/// Swift concurrency's global executor is a pool of one thread per core, two on the
/// project's machines. Anything in the process that blocks those threads — a test waiting
/// for a peer, a library user's synchronous I/O in a task — used to hold up every answer an
/// owner owed: an X requestor asking for `STRING` waited 21 s while both threads were busy
/// (docs/TESTING.md). Production runs here instead, as tasks that prefer this executor
/// (SE-0417): their own jobs, the child tasks they start, the default actors they call and
/// every resumption after an `await` come back to these threads, whatever the global pool
/// is doing. In `ferry daemon` the same holds against its event loops.
///
/// The threads start with the first job and then wait on a semaphore: while nothing is
/// produced none of them wakes.
///
/// ```swift
/// Task(executorPreference: ProductionExecutor.shared) { await item.payload(for: .png) }
/// ```
package final class ProductionExecutor: TaskExecutor {
  /// The process's production threads: as many as the cores, at least two, so that one
  /// provider that blocks its thread does not hold up the others.
  package static let shared = ProductionExecutor(threads: max(2, ProductionExecutor.coreCount))

  private struct Queue {
    var jobs: [UnownedJob] = []
    /// Index of the next job to run in `jobs` (taken from the front without shifting).
    var head = 0
    var started = false
  }

  private let threadCount: Int
  private let queue = TrackedMutex(Queue())
  /// Counts the jobs waiting in `queue`.
  private let waiting = DispatchSemaphore(value: 0)

  /// An executor of `threads` threads (at least one), started with its first job.
  package init(threads: Int) {
    threadCount = max(1, threads)
  }

  /// Queues `job` for the next free thread.
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let start = queue.withLock { queue -> Bool in
      queue.jobs.append(job)
      defer { queue.started = true }
      return !queue.started
    }
    if start { startThreads() }
    waiting.signal()
  }

  /// Starts the threads. One that the system refuses is one thread fewer; a process that
  /// can make none cannot produce anything, and neither could the global pool.
  private func startThreads() {
    for index in 0..<threadCount {
      DetachedThread.start(name: "ferry-produce\(index)") { [self] in run() }
    }
  }

  private func run() {
    while true {
      waiting.wait()
      let job = queue.withLock { queue -> UnownedJob in
        let job = queue.jobs[queue.head]
        queue.head += 1
        if queue.head == queue.jobs.count {
          queue.jobs.removeAll(keepingCapacity: true)
          queue.head = 0
        } else if queue.head >= 64, queue.head * 2 >= queue.jobs.count {
          queue.jobs.removeFirst(queue.head)
          queue.head = 0
        }
        return job
      }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  private static var coreCount: Int {
    Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }
}
