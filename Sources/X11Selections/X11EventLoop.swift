internal import CX11
import FoundationEssentials
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import DetachedThreads
import Synchronization

/// The thread that owns one X connection. Every Xlib call of the module runs here.
///
/// Other threads and tasks hand it work with ``submit(_:)`` or ``perform(_:)``; it sleeps in
/// poll(2) on the connection and a wake-up descriptor — never a sleep loop — and runs timers
/// for the protocols' deadlines. When the display goes away, every waiting caller gets
/// ``X11Error/connectionLost`` and the thread ends; the process goes on.
final class X11EventLoop: Sendable {
  typealias Job = @Sendable (X11Session) -> Void

  private struct Shared {
    var jobs: [Job] = []
    var lost = false
    var stopping = false
    var onLost: [@Sendable () -> Void] = []
  }

  private let shared = Mutex(Shared())
  /// A pipe: a byte written to `wakeWriter` wakes the thread from poll(2).
  private let wakeDescriptor: Int32
  private let wakeWriter: Int32
  /// Signalled when the thread has ended (and left signalled).
  private let finished = DispatchSemaphore(value: 0)
  private let xThread = Mutex<pthread_t?>(nil)

  /// Opens `display` (or `$DISPLAY`) on a new thread and returns once it is open.
  ///
  /// - Throws: ``X11Error`` when the display cannot be opened.
  init(display: String?) throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw X11Error.cannotOpenDisplay("(no pipe: \(String(cString: strerror(errno))))") }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    wakeDescriptor = ends[0]
    wakeWriter = ends[1]
    let opened = Mutex<Result<Void, X11Error>?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let started = DetachedThread.start(name: "ferry-x11") { [self] in
      xThread.withLock { $0 = pthread_self() }
      defer { finished.signal() }
      let session: X11Session
      do {
        session = try X11Session(display: display, loop: self)
        opened.withLock { $0 = .success(()) }
        ready.signal()
      } catch {
        opened.withLock { $0 = .failure(error as? X11Error ?? .cannotOpenDisplay(display ?? "")) }
        ready.signal()
        return
      }
      run(session)
    }
    guard started else {
      throw X11Error.cannotOpenDisplay("(no thread: \(String(cString: strerror(errno))))")  // deinit closes the pipe
    }
    ready.wait()
    if case .failure(let error) = opened.withLock({ $0 })! {
      throw error  // deinit closes the pipe
    }
  }

  /// Closes the wake-up pipe. Only here, when nobody can call ``stop()`` or ``submit(_:)``
  /// any more: closing it when the thread ends let a later `stop()` (from `X11Display`'s
  /// deinit after `close()`) write its byte into whatever reused the descriptor number, such
  /// as another display's X socket, corrupting that connection's request stream.
  deinit {
    close(wakeDescriptor)
    close(wakeWriter)
  }

  /// Runs `job` on the X thread, soon.
  func submit(_ job: @escaping Job) {
    let accepted = shared.withLock { shared -> Bool in
      guard !shared.lost else { return false }
      shared.jobs.append(job)
      return true
    }
    if accepted { wake() }
  }

  /// Runs `body` on the X thread and returns its result.
  ///
  /// - Throws: What `body` throws, or ``X11Error/connectionLost``.
  func perform<T: Sendable>(_ body: @escaping @Sendable (X11Session) throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let once = Once(continuation)
      let registered = shared.withLock { shared -> Bool in
        guard !shared.lost else { return false }
        shared.onLost.append { once.resume(throwing: X11Error.connectionLost) }
        shared.jobs.append { session in
          once.resume(with: Result { try body(session) })
        }
        return true
      }
      if registered { wake() } else { once.resume(throwing: X11Error.connectionLost) }
    }
  }

  /// Calls `handler` once if the connection is lost.
  func onConnectionLost(_ handler: @escaping @Sendable () -> Void) {
    let lost = shared.withLock { shared -> Bool in
      if !shared.lost { shared.onLost.append(handler) }
      return shared.lost
    }
    if lost { handler() }
  }

  /// Whether the connection has been lost.
  var isConnectionLost: Bool { shared.withLock { $0.lost } }

  /// Closes the connection and ends the thread.
  ///
  /// Waits (briefly) for the thread to close the display, unless called on it: a process
  /// that exits while the thread is still inside Xlib can crash in its teardown.
  func stop() {
    shared.withLock { $0.stopping = true }
    wake()
    guard let thread = xThread.withLock({ $0 }), pthread_equal(thread, pthread_self()) == 0 else { return }
    if finished.wait(timeout: .now() + 2) == .success { finished.signal() }
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWriter, &byte, 1)
  }

  /// Marks the connection lost and tells everyone waiting.
  func connectionLost() {
    let handlers = shared.withLock { shared -> [@Sendable () -> Void] in
      guard !shared.lost else { return [] }
      shared.lost = true
      shared.jobs.removeAll()
      defer { shared.onLost.removeAll() }
      return shared.onLost
    }
    handlers.forEach { $0() }
  }

  private func run(_ session: X11Session) {
    var descriptors = [
      pollfd(fd: session.connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let (jobs, stopping) = shared.withLock { shared -> ([Job], Bool) in
        defer { shared.jobs.removeAll() }
        return (shared.jobs, shared.stopping)
      }
      if stopping { break }
      for job in jobs { job(session) }
      session.dispatchPendingEvents()
      session.runDueTimers()
      session.connection.flush()
      if session.connection.pendingEvents() > 0 { continue }
      let timeout = session.millisecondsToNextTimer()
      descriptors[0].revents = 0
      descriptors[1].revents = 0
      let ready = poll(&descriptors, 2, timeout)
      if ready < 0 && errno != EINTR { break }
      if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
        ErrorTrap.markLost(session.connection.display)
        session.failEverything(with: .connectionLost)
        connectionLost()
        return
      }
      if descriptors[1].revents & Int16(POLLIN) != 0 {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeDescriptor, &drain, drain.count) > 0 {}
      }
    }
    session.failEverything(with: .connectionLost)
    connectionLost()
    session.close()
  }
}

/// Delivers a result once, whoever gets there first: to a continuation, or to a callback
/// (a caller waiting without async, see ``X11Display/readWaiting(_:target:into:stepTimeout:byteLimit:)``).
final class Once<T: Sendable>: Sendable {
  private let deliver: Mutex<(@Sendable (Result<T, any Error>) -> Void)?>

  init(_ continuation: CheckedContinuation<T, any Error>) {
    deliver = Mutex({ continuation.resume(with: $0) })
  }

  init(_ deliver: @escaping @Sendable (Result<T, any Error>) -> Void) {
    self.deliver = Mutex(deliver)
  }

  func resume(with result: Result<T, any Error>) {
    deliver.withLock { $0.take() }?(result)
  }

  func resume(returning value: T) { resume(with: .success(value)) }
  func resume(throwing error: any Error) { resume(with: .failure(error)) }
}
