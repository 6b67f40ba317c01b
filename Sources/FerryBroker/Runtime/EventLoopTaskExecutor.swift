import NIOCore

/// Runs a task's jobs on one NIO event loop: the loop of the channel the task serves.
///
/// A connection's task awaits its channel's frames and writes to it. On Swift's global
/// executor every await would hop between the event loop's thread and a pool thread — three
/// threads woken for one short `read`. With this executor as the task's preference the whole
/// exchange stays on the event loop's thread. Work that may take long leaves it: file I/O
/// runs on the thread pool, and a conversion runs in an unstructured task, which does not
/// inherit the preference.
///
/// ```swift
/// group.addTask(executorPreference: EventLoopTaskExecutor(channel.eventLoop)) {
///   await serve(channel)
/// }
/// ```
final class EventLoopTaskExecutor: TaskExecutor {
  /// The loop the jobs run on.
  let eventLoop: any EventLoop

  init(_ eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    eventLoop.execute { [self] in
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
