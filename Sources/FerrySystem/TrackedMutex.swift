import CFerrySystem
public import Synchronization

#if FERRY_TRACKED_LOCKS
  /// `Synchronization.Mutex` whose locking ThreadSanitizer sees.
  ///
  /// On Linux, `Mutex` takes and hands over a contended lock with futex system calls inside
  /// the uninstrumented Synchronization library, so ThreadSanitizer sees no ordering between
  /// one holder's unlock and the next holder's lock and reports every contended access as a
  /// race. `TrackedMutex` tells it: each holder acquires the lock's address after locking and
  /// releases it before unlocking (`__tsan_acquire`, `__tsan_release`). Without ThreadSanitizer
  /// those are two calls that find no runtime and return. Use it wherever `Mutex` would go.
  ///
  /// This wrapper exists in builds for ThreadSanitizer only (`Scripts/test --sanitize thread`
  /// defines `FERRY_TRACKED_LOCKS`); elsewhere `TrackedMutex` is `Mutex` itself (below).
  public struct TrackedMutex<Value: ~Copyable>: ~Copyable {
    private let mutex: Mutex<Value>

    /// A lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
      mutex = Mutex(initialValue)
    }

    /// Runs `body` with the guarded value while holding the lock.
    public borrowing func withLock<Result: ~Copyable, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
        // A noncopyable value is never copied: this is where the lock lives, the same on
        // every call.
        let identity = withUnsafePointer(to: mutex) { UnsafeRawPointer($0) }
        cferry_sanitizer_acquire(identity)
        defer { cferry_sanitizer_release(identity) }
        return try body(&value)
      }
    }
  }

  extension TrackedMutex: @unchecked Sendable where Value: ~Copyable {}
#else
  /// `Synchronization.Mutex`: in a build for ThreadSanitizer (`FERRY_TRACKED_LOCKS`), a wrapper
  /// that shows ThreadSanitizer the lock's hand-overs, which it cannot see in the futex calls
  /// inside Synchronization. Elsewhere the wrapper is left out: each of its generic
  /// instantiations cost the runtime metadata of its own at first use, and with every lock of the
  /// product behind it, a short `pbpaste` ran 15% more instructions
  /// (docs/log/2026-12-02-performance.md, "Counts").
  public typealias TrackedMutex = Mutex
#endif
