import FerrySystem
import Foundation

/// The sessions of one kind of ``DesktopSession`` a test process started: one per purpose,
/// started on first use, and every session still running stopped when the test process exits
/// (Swift Testing's runner ends with `exit`), so that their directories go too.
public final class DesktopSessionCache<Session: DesktopSession>: @unchecked Sendable {
  private var sessions: [String: Result<Session, any Error>] = [:]
  /// Guards `sessions`; never held while a session starts.
  private let cacheLock = NSLock()
  /// Held while a session starts: two sessions starting at once would both build their
  /// compositors on the two cores.
  private let startLock = NSLock()

  /// An empty cache: one a kind of session keeps (``DesktopSession/sessions``).
  public init() {}

  /// The session for `purpose`, started with `start` the first time (its failure too is
  /// remembered: each later call throws it again at once).
  @available(*, noasync, message: "starts a compositor; await the async form")
  func session(for purpose: String, _ start: () throws -> Session) throws -> Session {
    startLock.lock()
    defer { startLock.unlock() }
    if let existing = cacheLock.withLock({ sessions[purpose] }) { return try existing.get() }
    let result = Result { try start() }
    cacheLock.withLock { sessions[purpose] = result }
    return try result.get()
  }

  /// The session for `purpose`, started on a thread of its own the first time.
  func session(for purpose: String, _ start: @escaping @Sendable () throws -> Session)
    async throws -> Session
  {
    if let existing = cacheLock.withLock({ sessions[purpose] }) { return try existing.get() }
    return try await DetachedThread.run { try self.session(for: purpose, start) }
  }

  /// A session never shared, started with `start`.
  @available(*, noasync, message: "starts a compositor; await the async form")
  func disposable(_ start: () throws -> Session) throws -> Session {
    startLock.lock()
    defer { startLock.unlock() }
    return try start()
  }
}

/// Every ``DesktopSession`` still running, stopped when the test process exits.
enum RunningDesktopSessions {
  nonisolated(unsafe) private static var running: [ObjectIdentifier: any DesktopSession] = [:]
  nonisolated(unsafe) private static var exitHookInstalled = false
  private static let lock = NSLock()

  /// Has `session` stopped when the test process exits, unless it stops first.
  static func add(_ session: any DesktopSession) {
    lock.withLock {
      running[ObjectIdentifier(session)] = session
      if !exitHookInstalled {
        exitHookInstalled = true
        atexit { RunningDesktopSessions.stopAll() }
      }
    }
  }

  /// `session` has stopped.
  static func remove(_ session: any DesktopSession) {
    _ = lock.withLock { running.removeValue(forKey: ObjectIdentifier(session)) }
  }

  private static func stopAll() {
    let sessions = lock.withLock { Array(running.values) }
    for session in sessions { session.stop() }
  }
}
