#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A pipe that wakes a thread waiting in `poll(2)`: the thread polls ``readEnd`` beside its
/// other descriptors, any thread calls ``wake()``, and the woken thread ``drain()``s it.
/// Both ends are non-blocking and close-on-exec, so a wake-up never blocks its caller, however
/// many come before the thread drains them.
///
/// ```swift
/// let wakeUp = try WakeUpPipe()
/// var entries = [PollEntry(socket, for: .readable), PollEntry(wakeUp.readEnd, for: .readable)]
/// _ = try Poll.wait(&entries, until: nil)
/// if entries[1].isReady { wakeUp.drain() }   // then run the jobs queued meanwhile
/// ```
public struct WakeUpPipe: Sendable {
  /// The end to poll: readable once ``wake()`` was called.
  public let readEnd: FileDescriptor
  /// The end ``wake()`` writes to.
  public let writeEnd: FileDescriptor

  /// A new pipe, not yet woken.
  ///
  /// - Throws: `Errno` when the pipe cannot be made.
  public init() throws(Errno) {
    let ends = try FileDescriptor.closeOnExecPipe()
    do {
      try ends.readEnd.setNonBlocking()
      try ends.writeEnd.setNonBlocking()
    } catch {
      try? ends.readEnd.close()
      try? ends.writeEnd.close()
      throw error
    }
    (readEnd, writeEnd) = (ends.readEnd, ends.writeEnd)
  }

  /// Makes ``readEnd`` readable. A full pipe already is: the byte is not needed then.
  public func wake() {
    var one: UInt8 = 1
    _ = withUnsafeBytes(of: &one) { try? writeEnd.writeAvailable(from: $0) }
  }

  /// Reads every wake-up that came, so that ``readEnd`` waits again.
  public func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while let count = buffer.withUnsafeMutableBytes({ try? readEnd.readAvailable(into: $0) }),
      count > 0
    {}
  }

  /// Closes both ends; no call after.
  public func close() {
    try? readEnd.close()
    try? writeEnd.close()
  }
}
