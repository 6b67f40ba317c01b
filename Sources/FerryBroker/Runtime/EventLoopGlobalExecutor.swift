internal import CConcurrencyHooks
import NIOCore
import NIOPosix

/// Swift concurrency's global executor for the daemon: runs every job that would go to
/// Dispatch's worker pool — tasks without an executor preference, default actors — on event
/// loops of its own instead.
///
/// Dispatch's pool on Linux has a monitor, started with the pool's first worker and never
/// stopped: a timer that wakes the process every second to count the workers that can run
/// (libdispatch's `_dispatch_workq_monitor_pools`). A broker that should not wake while
/// nothing happens cannot have it. Event loops wait in `epoll_wait` without a timeout until
/// there is work. The pool keeps Dispatch's width, one thread per core, apart from the loop
/// that serves the socket, so that a long conversion never holds up a connection.
///
/// Sleeps are the other way into Dispatch's pool — `Task.sleep` on `ContinuousClock` waits
/// on a Dispatch timer whatever the executor — so the broker's code sleeps on
/// `TimerThreadClock` (docs/PERFORMANCE.md, "Daemon at rest").
///
/// ```swift
/// EventLoopGlobalExecutor.install()   // once, before the first task
/// ```
final class EventLoopGlobalExecutor: TaskExecutor {
  /// The executor the hook hands jobs to.
  static let shared = EventLoopGlobalExecutor(
    group: MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount))

  /// The loops jobs run on.
  let group: MultiThreadedEventLoopGroup

  private init(group: MultiThreadedEventLoopGroup) {
    self.group = group
  }

  func enqueue(_ job: consuming ExecutorJob) {
    run(UnownedJob(job))
  }

  /// Runs `job` as a job of this executor: on the calling thread's loop when that is one of
  /// the executor's (a task resumed by another task of the pool, a child task), queued
  /// behind what that loop is doing without waking any thread; otherwise on the next loop.
  /// Handing each such job to the next loop instead woke both loops in turn, about six
  /// times each per paste through the broker (docs/log/2026-12-02-performance.md, "Counts").
  func run(_ job: UnownedJob) {
    (currentLoop ?? group.next()).execute { [self] in
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// The executor's loop that runs the calling thread, if any.
  var currentLoop: (any EventLoop)? { group.makeIterator().first { $0.inEventLoop } }

  /// Whether the calling thread is one of the executor's loops.
  var isCurrent: Bool { currentLoop != nil }

  /// The runtime's hook type: the job, and the runtime's own enqueue (not used).
  private typealias EnqueueGlobalHook =
    @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

  /// Makes this executor the global one; call once, before the first task starts.
  ///
  /// - Returns: `false` when another hook is installed already (the global executor stays
  ///   what it is).
  @discardableResult
  static func install() -> Bool {
    let hook: EnqueueGlobalHook = { job, _ in EventLoopGlobalExecutor.shared.run(job) }
    return cferry_install_enqueue_global_hook(unsafeBitCast(hook, to: UnsafeMutableRawPointer.self))
      != 0
  }
}
