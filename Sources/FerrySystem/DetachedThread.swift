import CFerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Starts a thread of its own for `body` and forgets it (detached): for work that blocks — an
/// X connection's poll loop, a wait for a child process — and must not hold a Swift
/// concurrency thread.
///
/// POSIX threads directly, so that the modules a command-line tool links need no
/// `Foundation.Thread`: linking full Foundation costs every start of `pbpaste` ~0.6 ms
/// (docs/log/2026-12-02-performance.md, "Command-line tools").
///
/// ```swift
/// DetachedThread.start(name: "ferry-x11") { runLoop() }
/// ```
package enum DetachedThread {
  /// Starts `body` on a new detached thread named `name` (at most 15 bytes are kept).
  ///
  /// - Parameter stackSize: The thread's stack, in bytes; the system's default when `nil`.
  /// - Returns: `false` when the system refused to make a thread (`body` does not run).
  @discardableResult
  package static func start(
    name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void
  ) -> Bool {
    let context = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    var thread = pthread_t()
    let created = pthread_create(
      &thread, &attributes,
      { context in
        let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
        _ = work.name.withCString { cferry_set_thread_name($0) }
        work.body()
        return nil
      }, context)
    if created != 0 {
      Unmanaged<Work>.fromOpaque(context).release()
      return false
    }
    return true
  }

  /// Runs blocking `body` on a new thread of its own and returns what it returns: the one way,
  /// in the product and in the tests, to wait for a process, a pipe or a lock from async code
  /// without holding a thread of Swift concurrency's cooperative pool (one per core, two on
  /// the project's machines; an X owner's or the broker's tasks need them).
  ///
  /// When the system refuses a thread, `body` runs on the caller's thread instead.
  ///
  /// ```swift
  /// let status = try await DetachedThread.run { try child.waitForExit() }
  /// ```
  package static func run<T: Sendable>(
    name: String = "ferry-blocking", stackSize: Int? = 1 << 22,
    _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let job: @Sendable () -> Void = { continuation.resume(with: Result { try body() }) }
      if !start(name: name, stackSize: stackSize, job) { job() }
    }
  }

  /// What a new thread runs, handed to it through `pthread_create`'s context pointer.
  private final class Work {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }
}
