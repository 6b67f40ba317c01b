import FerrySystem
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a blocking call on a thread of its own and interrupts it with signals while it
/// waits, so the call sees `EINTR`: the handler is installed without `SA_RESTART`, and only
/// that thread has the signal unblocked, so every signal lands there.
enum Interrupter {
  /// How many signals the handler caught, over the whole test process.
  static let caught = Atomic<Int>(0)

  /// Calls `body` on a new thread while `SIGUSR1` is sent to that thread every 5 ms, for
  /// `interruptFor` or until `body` returns; then calls `afterwards` (to let the call finish)
  /// and returns what `body` returned, with how many signals the handler caught meanwhile and
  /// whether `body` returned while the signals still came.
  static func run<T: Sendable>(
    interruptFor duration: Duration = .milliseconds(100), _ body: @escaping @Sendable () -> T,
    afterwards: () -> Void
  ) -> (result: T, signals: Int, endedWhileInterrupted: Bool) {
    installHandler()
    let before = caught.load(ordering: .relaxed)
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    // The thread stays until the signals stop: pthread_kill on an ended thread is undefined.
    let release = DispatchSemaphore(value: 0)
    let box = Box<T>()
    let thread = Box<pthread_t>()
    Thread.detachNewThread {
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      sigaddset(&unblocked, SIGUSR1)
      pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
      thread.set(pthread_self())
      started.signal()
      let result = body()
      // Signals sent from now on must find the thread still there: block them first.
      pthread_sigmask(SIG_BLOCK, &unblocked, nil)
      box.set(result)
      finished.signal()
      release.wait()
    }
    started.wait()
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end, !box.isSet {
      pthread_kill(thread.get()!, SIGUSR1)
      usleep(5_000)  // the pace of the interruptions, not a wait for anything
    }
    let endedWhileInterrupted = box.isSet
    afterwards()
    finished.wait()
    release.signal()
    return (box.get()!, caught.load(ordering: .relaxed) - before, endedWhileInterrupted)
  }

  private static let installed = TrackedMutex(false)

  private static func installHandler() {
    installed.withLock { done in
      guard !done else { return }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in Interrupter.caught.add(1, ordering: .relaxed) }
      action.sa_flags = 0  // no SA_RESTART: a blocked call returns EINTR
      sigemptyset(&action.sa_mask)
      sigaction(SIGUSR1, &action, nil)
      // Every other thread keeps SIGUSR1 blocked, so the signal reaches only the target.
      done = true
    }
  }
}

/// A value handed from one thread to another.
final class Box<T: Sendable>: Sendable {
  private let value = TrackedMutex<T?>(nil)
  func set(_ newValue: T) { value.withLock { $0 = newValue } }
  func get() -> T? { value.withLock { $0 } }
  var isSet: Bool { value.withLock { $0 != nil } }
}
