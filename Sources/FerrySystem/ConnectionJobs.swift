/// The work other threads hand the thread that owns a connection (an X display, a Wayland
/// compositor), and what wakes that thread for it: a queue of jobs and a ``WakeUpPipe``,
/// the half of a connection loop that does not depend on the protocol. The owning thread
/// polls ``readEnd`` beside its socket, ``drain()``s it and runs what ``take(ending:)`` gives;
/// once the queue has ended, ``submit(_:)`` refuses, and the caller decides what a refused
/// job means (X11 drops it and fails its caller; Wayland runs it at once, as the state is
/// no longer the thread's).
///
/// ```swift
/// let jobs = try ConnectionJobs<Session>()
/// if !jobs.submit({ session in session.flush() }) { /* the connection has ended */ }
/// // On the owning thread, after poll(2):
/// jobs.drain()
/// for job in jobs.take() { job(session) }
/// ```
public final class ConnectionJobs<Context>: Sendable {
  /// Work for the owning thread.
  public typealias Job = @Sendable (Context) -> Void

  private let queue = TrackedMutex<(jobs: [Job], ended: Bool)>(([], false))
  private let wakeUp: WakeUpPipe

  /// An empty queue, open.
  ///
  /// - Throws: `Errno` when its pipe cannot be made.
  public init() throws(Errno) {
    wakeUp = try WakeUpPipe()
  }

  /// The pipe closes only here, when nobody can submit or wake any more: closed when the
  /// thread ends, a later wake-up could write into whatever reused the descriptor number.
  deinit { wakeUp.close() }

  /// What the owning thread polls: readable once a job or a wake-up came.
  public var readEnd: FileDescriptor { wakeUp.readEnd }

  /// Queues `job` and wakes the owning thread.
  ///
  /// - Returns: `false` when the queue has ended: `job` was not queued.
  @discardableResult
  public func submit(_ job: @escaping Job) -> Bool {
    let accepted = queue.withLock { queue -> Bool in
      guard !queue.ended else { return false }
      queue.jobs.append(job)
      return true
    }
    if accepted { wakeUp.wake() }
    return accepted
  }

  /// Wakes the owning thread with no job (to stop, say).
  public func wake() { wakeUp.wake() }

  /// Reads the wake-ups that came, so that ``readEnd`` waits again.
  public func drain() { wakeUp.drain() }

  /// The jobs queued so far, taken off the queue; with `ending`, the queue ends and takes no
  /// more.
  public func take(ending: Bool = false) -> [Job] {
    queue.withLock { queue in
      defer { queue.jobs = [] }
      if ending { queue.ended = true }
      return queue.jobs
    }
  }

  /// Whether the queue has ended.
  public var hasEnded: Bool { queue.withLock { $0.ended } }
}
