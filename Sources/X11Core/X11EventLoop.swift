import Dispatch
import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The thread that owns one X connection. Every Xlib call runs here: it is the serial
/// executor of the connection, and of the `Session` built on it.
///
/// Other threads and tasks hand it work with ``submit(_:)`` or ``perform(_:)``; it sleeps in
/// poll(2) on the connection and a wake-up descriptor — never a sleep loop — and runs the
/// session's timers. When the display goes away, every waiting caller gets
/// ``X11Error/connectionLost`` and the thread ends; the process goes on.
///
/// ```swift
/// let loop = try X11EventLoop(display: nil) { connection, loop in MySession(connection) }
/// let root = try await loop.perform { session in session.connection.root }
/// ```
public final class X11EventLoop<Session: X11EventLoopSession>: Sendable {
  /// Work for the X thread.
  public typealias Job = @Sendable (Session) -> Void
  /// Makes the session on the X thread, once the connection is open.
  public typealias MakeSession = (X11Connection, X11EventLoop<Session>) throws -> Session

  private struct Shared {
    var lost = false
    var stopping = false
    /// What to call if the connection is lost, by registration: each waiting caller's own
    /// failure path, removed when its call resolves, so the table holds only calls in flight.
    var onLost: [UInt64: @Sendable () -> Void] = [:]
    var nextRegistration: UInt64 = 0
  }

  private let shared = TrackedMutex(Shared())
  /// Work for the X thread, and what wakes it from poll(2) for it (the same queue as the
  /// Wayland connection's); it ends when the connection is lost.
  private let jobs: ConnectionJobs<Session>
  /// Signalled when the thread has ended (and left signalled).
  private let finished = DispatchSemaphore(value: 0)
  private let xThread = TrackedMutex<pthread_t?>(nil)
  /// For a loop on the calling thread: what ends the process when Xlib finds the connection
  /// dead inside a call (that thread cannot end alone, as the X thread of a display does).
  private let lostInsideXlib: (@Sendable () -> Never)?

  /// Opens `display` (or `$DISPLAY`) on a new thread, makes the session there with
  /// `makeSession`, and returns once both are ready.
  ///
  /// - Throws: ``X11Error`` when the display cannot be opened, or what `makeSession` throws
  ///   (as ``X11Error/cannotOpenDisplay(_:)`` when it is not an ``X11Error``).
  public init(
    display: String?,
    makeSession: @escaping @Sendable (X11Connection, X11EventLoop<Session>) throws -> Session
  ) throws {
    jobs = try Self.makeJobs()
    lostInsideXlib = nil
    let opened = TrackedMutex<Result<Void, X11Error>?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let started = DetachedThread.start(name: "ferry-x11") { [self] in
      xThread.withLock { $0 = pthread_self() }
      defer { finished.signal() }
      let session: Session
      do {
        session = try open(display: display, makeSession) {
          // The server went away while the connection was being opened: this init fails.
          let first = opened.withLock { result -> Bool in
            guard case .none = result else { return false }
            result = .failure(
              .cannotOpenDisplay("\(display ?? "$DISPLAY"): the X server closed the connection"))
            return true
          }
          if first { ready.signal() }
        }
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
  /// runs until ``runOnCallingThread(display:makeSession:start:until:)``, on this thread.
  ///
  /// - Parameters:
  ///   - onCallingThread: `()`: this loop's X thread is the calling one.
  ///   - lostInsideXlib: Ends the process when Xlib finds the connection dead inside a call,
  ///     which Xlib does not return from.
  public init(onCallingThread: Void, lostInsideXlib: @escaping @Sendable () -> Never) throws {
    jobs = try Self.makeJobs()
    self.lostInsideXlib = lostInsideXlib
    xThread.withLock { $0 = pthread_self() }
  }

  private static func makeJobs() throws(X11Error) -> ConnectionJobs<Session> {
    do throws(Errno) {
      return try ConnectionJobs()
    } catch {
      throw X11Error.cannotOpenDisplay("(no pipe: \(error))")
    }
  }

  /// Opens `display` on the calling thread — the one this loop was made on — makes the
  /// session with `makeSession` and gives it to `start`, and serves the connection on this
  /// thread until `isDone()` holds after a step; then closes it. No thread is started and no
  /// result crosses threads.
  ///
  /// - Throws: ``X11Error`` when the display cannot be opened, or what `makeSession` throws.
  public func runOnCallingThread(
    display: String?, makeSession: MakeSession, start: (Session) -> Void, until isDone: () -> Bool
  ) throws {
    let session = try open(display: display, makeSession)
    start(session)
    run(session, until: isDone)
  }

  /// Opens the connection on the X thread (this one), arranges for a loss inside Xlib to end
  /// only this thread, and makes the session.
  ///
  /// `lostWhileOpening` runs when the connection is found dead before the session is made.
  private func open(
    display: String?, _ makeSession: MakeSession, lostWhileOpening: @escaping () -> Void = {}
  ) throws -> Session {
    let made = TrackedMutex(false)
    // Set before the connection's first round trip (X11Connection's init).
    let connection = try X11Connection(name: display) { [unowned self] in
      // Xlib found the connection dead inside a call. Tell every waiter, then end this
      // thread without returning to Xlib, which would exit the process.
      if !made.withLock({ $0 }) { lostWhileOpening() }
      if let end = lostInsideXlib { end() }
      threadEndsInsideXlib()
      pthread_exit(nil)
    }
    let session = try makeSession(connection, self)
    made.withLock { $0 = true }
    connection.flush()
    return session
  }

  // The wake-up pipe closes with the job queue, when the loop goes: nobody can call
  // ``stop()`` or ``submit(_:)`` any more. Closing it when the thread ended let a later
  // `stop()` (from `X11Display`'s deinit after `close()`) write its byte into whatever reused
  // the descriptor number, such as another display's X socket, corrupting that connection's
  // request stream.

  /// Runs `job` on the X thread, soon; nothing runs once the connection is lost.
  public func submit(_ job: @escaping Job) {
    jobs.submit(job)  // refused once the connection is lost: nothing runs then
  }

  /// Runs `body` on the X thread and returns its result.
  ///
  /// - Throws: What `body` throws, or ``X11Error/connectionLost``.
  public func perform<T: Sendable>(_ body: @escaping @Sendable (Session) throws -> T) async throws
    -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      let once = tracked(Once(continuation))
      submit { session in once.resume(with: Result { try body(session) }) }
    }
  }

  /// `once`, failed with ``X11Error/connectionLost`` if the connection goes before it is
  /// resolved. The registration lasts until `once` resolves, however it resolves: a daemon
  /// that makes millions of calls keeps only those in flight.
  package func tracked<T>(_ once: Once<T>) -> Once<T> {
    guard let registration = onConnectionLost({ once.resume(throwing: X11Error.connectionLost) })
    else {
      return once  // Already lost: `once` has just been failed.
    }
    once.onResolved { [weak self] in self?.forget(registration) }
    return once
  }

  /// Calls `handler` once if the connection is lost; at once if it already is.
  ///
  /// - Returns: The registration, for ``forget(_:)``; `nil` when `handler` was called here.
  @discardableResult
  public func onConnectionLost(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
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
  public func forget(_ registration: UInt64) {
    _ = shared.withLock { $0.onLost.removeValue(forKey: registration) }
  }

  /// How many loss handlers are registered: calls in flight plus watchers (for tests).
  public var registeredLossHandlers: Int { shared.withLock { $0.onLost.count } }

  /// Whether the connection has been lost.
  public var isConnectionLost: Bool { shared.withLock { $0.lost } }

  /// Closes the connection and ends the thread.
  ///
  /// Waits (briefly) for the thread to close the display, unless called on it: a process
  /// that exits while the thread is still inside Xlib can crash in its teardown.
  public func stop() {
    shared.withLock { $0.stopping = true }
    wake()
    guard let thread = xThread.withLock({ $0 }), pthread_equal(thread, pthread_self()) == 0 else {
      return
    }
    if finished.wait(timeout: .now() + 2) == .success { finished.signal() }
  }

  private func wake() { jobs.wake() }

  /// The X thread's end when Xlib found the connection dead inside a call: tells everyone
  /// waiting, and that the thread is gone. Called on the X thread just before it exits
  /// without returning (`pthread_exit`), so its `defer` does not run: without this, every
  /// later ``stop()`` waited its whole 2 s for a thread that was no longer there.
  private func threadEndsInsideXlib() {
    connectionLost()
    finished.signal()
  }

  /// Marks the connection lost and tells everyone waiting.
  private func connectionLost() {
    let handlers = shared.withLock { shared -> [@Sendable () -> Void] in
      guard !shared.lost else { return [] }
      shared.lost = true
      defer { shared.onLost.removeAll() }
      return shared.onLost.sorted { $0.key < $1.key }.map(\.value)  // in the order registered
    }
    _ = jobs.take(ending: true)  // dropped: their callers fail through the handlers
    handlers.forEach { $0() }
  }

  private func run(_ session: Session, until isDone: () -> Bool = { false }) {
    var entries = [
      PollEntry(FileDescriptor(rawValue: session.connection.fileDescriptor), for: .readable),
      PollEntry(jobs.readEnd, for: .readable),
    ]
    while true {
      if shared.withLock({ $0.stopping }) { break }
      for job in jobs.take() { job(session) }
      while session.connection.pendingEvents() > 0 {
        session.handle(session.connection.nextEvent())
      }
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
        session.connection.markLost()
        session.failEverything(with: .connectionLost)
        connectionLost()
        return
      }
      if entries[1].returned.contains(.readable) { jobs.drain() }
    }
    session.failEverything(with: .connectionLost)
    connectionLost()
    session.close()
  }
}
