#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// swift-system's calls are declared `throws` and throw only `Errno`; this gives them a typed
/// throw, so that a caller's `catch` has the `Errno` without a cast.
extension Errno {
  /// Runs `body`, a swift-system call, rethrowing its error as `Errno`.
  ///
  /// ```swift
  /// let count = try Errno.catching { try descriptor.read(into: buffer) }
  /// ```
  ///
  /// - Throws: The `Errno` that `body` threw.
  @inlinable
  public static func catching<T>(_ body: () throws -> T) throws(Errno) -> T {
    do {
      return try body()
    } catch let error as Errno {
      throw error
    } catch {
      preconditionFailure("swift-system threw \(error), not an Errno")
    }
  }

  /// The `errno` that the last failed C call of this thread left.
  public static var last: Errno { Errno(rawValue: errno) }
}

extension Errno {
  /// Calls `call`, a C function that returns -1 and sets `errno` when it fails, again for as
  /// long as it fails with `EINTR` (swift-system's `retryOnInterrupt`, for the calls it does
  /// not wrap: `sendfile`, `accept`, `fcntl`, …).
  ///
  /// ```swift
  /// let copied = try Errno.retryingInterrupts { sendfile(output, input, nil, chunk) }
  /// ```
  ///
  /// - Returns: What `call` returned, never negative.
  /// - Throws: The `Errno` of a failure other than an interruption.
  public static func retryingInterrupts<I: FixedWidthInteger>(_ call: () -> I) throws(Errno) -> I {
    while true {
      let result = call()
      if result >= 0 { return result }
      let error = Errno.last
      guard error == .interrupted else { throw error }
    }
  }
}
