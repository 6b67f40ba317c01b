import NIOCore
import NIOPosix

extension BrokerDaemon {
  /// Sets the process up for a broker that gives freed memory back and sleeps while nothing
  /// happens (docs/PERFORMANCE.md, "Memory" and "Daemon at rest"). Call it once, first thing
  /// in `ferry daemon`, before any thread or task starts; a library embedding the broker
  /// need not.
  ///
  /// - SIGPIPE and SIGXFSZ become failed writes (``SignalWaiter/ignoreWriteSignals()``).
  /// - The heap's mmap threshold is fixed (``HeapRelease/configure()``).
  /// - NIO's shared event loop group gets one loop: the socket's, which serves every
  ///   connection (``BrokerSocketServer``); a second one never had anything to do.
  /// - Swift concurrency's global executor becomes the broker's own loops
  ///   (``EventLoopGlobalExecutor``) instead of Dispatch's worker pool, whose monitor wakes
  ///   the process every second.
  public static func prepareProcess() {
    // Before the lock file gets the pid: under a file-size limit that write must fail, not
    // end the process (SecondDaemonTests).
    SignalWaiter.ignoreWriteSignals()
    HeapRelease.configure()
    NIOSingletons.groupLoopCountSuggestion = 1
    EventLoopGlobalExecutor.install()
  }
}
