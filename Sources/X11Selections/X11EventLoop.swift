internal import CX11
import FoundationEssentials
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import FerrySystem

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
    /// What to call if the connection is lost, by registration: each waiting caller's own
    /// failure path, removed when its call resolves, so the table holds only calls in flight.
    var onLost: [UInt64: @Sendable () -> Void] = [:]
    var nextRegistration: UInt64 = 0
  }

  private let shared = TrackedMutex(Shared())
  /// A pipe: a byte written to `wakeWriter` wakes the thread from poll(2).
  private let wakeDescriptor: FileDescriptor
  private let wakeWriter: FileDescriptor
  /// Signalled when the thread has ended (and left signalled).
  private let finished = DispatchSemaphore(value: 0)
  private let xThread = TrackedMutex<pthread_t?>(nil)
  /// For a loop on the calling thread: what ends the process when Xlib finds the connection
  /// dead inside a call (that thread cannot end alone, as the X thread of a display does).
  let lostInsideXlib: (@Sendable () -> Never)?

  /// Opens `display` (or `$DISPLAY`) on a new thread and returns once it is open.
  ///
  /// - Parameter clock: What the thread's deadlines are measured in.
  /// - Throws: ``X11Error`` when the display cannot be opened.
  init(display: String?, clock: DeadlineClock = .continuous) throws {
    (wakeDescriptor, wakeWriter) = try Self.wakePipe()
    lostInsideXlib = nil
    let opened = TrackedMutex<Result<Void, X11Error>?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let started = DetachedThread.start(name: "ferry-x11") { [self] in
      xThread.withLock { $0 = pthread_self() }
      defer { finished.signal() }
      let session: X11Session
      do {
        session = try X11Session(display: display, loop: self, clock: clock)
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
      throw X11Error.cannotOpenDisplay("(no thread: \(Errno.last))")  // deinit closes the pipe
    }
    ready.wait()
    if case .failure(let error) = opened.withLock({ $0 })! {
      throw error  // deinit closes the pipe
    }
  }

  /// A loop whose X thread is the calling thread, for one transfer of a command: nothing
  /// runs until ``runOnCallingThread(display:clock:start:until:)``, on this thread.
  ///
  /// - Parameter lostInsideXlib: Ends the process when Xlib finds the connection dead inside
  ///   a call, which Xlib does not return from.
  init(onCallingThread: Void, lostInsideXlib: @escaping @Sendable () -> Never) throws {
    (wakeDescriptor, wakeWriter) = try Self.wakePipe()
    self.lostInsideXlib = lostInsideXlib
    xThread.withLock { $0 = pthread_self() }
  }

  private static func wakePipe() throws(X11Error) -> (FileDescriptor, FileDescriptor) {
    do throws(Errno) {
      let (reader, writer) = try FileDescriptor.closeOnExecPipe()
      try reader.setNonBlocking()
      try writer.setNonBlocking()
      return (reader, writer)
    } catch {
      throw X11Error.cannotOpenDisplay("(no pipe: \(error))")
    }
  }

  /// Opens `display` on the calling thread — the one this loop was made on — gives the
  /// session to `start`, and serves the connection on this thread until `isDone()` holds
  /// after a step; then closes it. No thread is started and no result crosses threads.
  ///
  /// - Throws: ``X11Error`` when the display cannot be opened.
  func runOnCallingThread(
    display: String?, clock: DeadlineClock = .continuous, start: (X11Session) -> Void, until isDone: () -> Bool
  ) throws {
    let session = try X11Session(display: display, loop: self, clock: clock)
    start(session)
    run(session, until: isDone)
  }

  /// Closes the wake-up pipe. Only here, when nobody can call ``stop()`` or ``submit(_:)``
  /// any more: closing it when the thread ends let a later `stop()` (from `X11Display`'s
  /// deinit after `close()`) write its byte into whatever reused the descriptor number, such
  /// as another display's X socket, corrupting that connection's request stream.
  deinit {
    try? wakeDescriptor.close()
    try? wakeWriter.close()
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
      let once = tracked(Once(continuation))
      submit { session in once.resume(with: Result { try body(session) }) }
    }
  }

  /// `once`, failed with ``X11Error/connectionLost`` if the connection goes before it is
  /// resolved. The registration lasts until `once` resolves, however it resolves: a daemon
  /// that makes millions of calls keeps only those in flight.
  func tracked<T>(_ once: Once<T>) -> Once<T> {
    guard let registration = onConnectionLost({ once.resume(throwing: X11Error.connectionLost) }) else {
      return once  // Already lost: `once` has just been failed.
    }
    once.onResolved { [weak self] in self?.forget(registration) }
    return once
  }

  /// Calls `handler` once if the connection is lost; at once if it already is.
  ///
  /// - Returns: The registration, for ``forget(_:)``; `nil` when `handler` was called here.
  @discardableResult
  func onConnectionLost(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
    let registration = shared.withLock { shared -> UInt64? in
      guard !shared.lost else { return nil }
      shared.nextRegistration += 1
      shared.onLost[shared.nextRegistration] = handler
      return shared.nextRegistration
    }
    if registration == nil { handler() }
    return registration
  }

  /// Removes a handler given to ``onConnectionLost(_:)``.
  func forget(_ registration: UInt64) {
    _ = shared.withLock { $0.onLost.removeValue(forKey: registration) }
  }

  /// How many loss handlers are registered: calls in flight plus watchers (for tests).
  var registeredLossHandlers: Int { shared.withLock { $0.onLost.count } }

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
    _ = try? wakeWriter.writeAll([UInt8(1)])
  }

  /// The X thread's end when Xlib found the connection dead inside a call: tells everyone
  /// waiting, and that the thread is gone. Called on the X thread just before it exits
  /// without returning (`pthread_exit`), so its `defer` does not run: without this, every
  /// later ``stop()`` waited its whole 2 s for a thread that was no longer there.
  func threadEndsInsideXlib() {
    connectionLost()
    finished.signal()
  }

  /// Marks the connection lost and tells everyone waiting.
  func connectionLost() {
    let handlers = shared.withLock { shared -> [@Sendable () -> Void] in
      guard !shared.lost else { return [] }
      shared.lost = true
      shared.jobs.removeAll()
      defer { shared.onLost.removeAll() }
      return shared.onLost.sorted { $0.key < $1.key }.map(\.value)  // in the order registered
    }
    handlers.forEach { $0() }
  }

  private func run(_ session: X11Session, until isDone: () -> Bool = { false }) {
    var entries = [
      PollEntry(FileDescriptor(rawValue: session.connection.fileDescriptor), for: .readable),
      PollEntry(wakeDescriptor, for: .readable),
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
      if isDone() { break }
      if session.connection.pendingEvents() > 0 { continue }
      let timeout = session.millisecondsToNextTimer()
      do {
        try Poll.wait(&entries, until: timeout < 0 ? nil : .now + .milliseconds(timeout))
      } catch {
        break
      }
      if !entries[0].returned.isDisjoint(with: [.hangUp, .error, .invalid]) {
        ErrorTrap.markLost(session.connection.display)
        session.failEverything(with: .connectionLost)
        connectionLost()
        return
      }
      if entries[1].returned.contains(.readable) {
        var drain = [UInt8](repeating: 0, count: 64)
        while (try? drain.withUnsafeMutableBytes { try wakeDescriptor.read(into: $0) }) ?? 0 > 0 {}
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
  private struct Pending {
    var deliver: (@Sendable (Result<T, any Error>) -> Void)?
    var resolved: [@Sendable () -> Void] = []
  }

  private let pending: TrackedMutex<Pending>

  init(_ continuation: CheckedContinuation<T, any Error>) {
    pending = TrackedMutex(Pending(deliver: { continuation.resume(with: $0) }))
  }

  init(_ deliver: @escaping @Sendable (Result<T, any Error>) -> Void) {
    pending = TrackedMutex(Pending(deliver: deliver))
  }

  /// Calls `action` once this is resolved (at once if it already is).
  func onResolved(_ action: @escaping @Sendable () -> Void) {
    let already = pending.withLock { pending -> Bool in
      guard pending.deliver != nil else { return true }
      pending.resolved.append(action)
      return false
    }
    if already { action() }
  }

  func resume(with result: Result<T, any Error>) {
    let taken = pending.withLock { pending -> (deliver: @Sendable (Result<T, any Error>) -> Void, resolved: [@Sendable () -> Void])? in
      guard let deliver = pending.deliver.take() else { return nil }
      defer { pending.resolved.removeAll() }
      return (deliver, pending.resolved)
    }
    guard let taken else { return }
    taken.deliver(result)
    taken.resolved.forEach { $0() }
  }

  func resume(returning value: T) { resume(with: .success(value)) }
  func resume(throwing error: any Error) { resume(with: .failure(error)) }
}
