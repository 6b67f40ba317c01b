#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What `poll(2)` waits for on a descriptor, and what it found.
public struct PollEvents: OptionSet, Hashable, Sendable {
  /// The raw `events` / `revents` bits.
  public let rawValue: Int16

  /// Wraps raw bits.
  public init(rawValue: Int16) { self.rawValue = rawValue }

  /// Bytes (or the end of the stream) can be read. The corresponding C constant is `POLLIN`.
  public static let readable = PollEvents(rawValue: Int16(POLLIN))
  /// Bytes can be written. The corresponding C constant is `POLLOUT`.
  public static let writable = PollEvents(rawValue: Int16(POLLOUT))
  /// An error is pending (reported, never asked for). The corresponding C constant is `POLLERR`.
  public static let error = PollEvents(rawValue: Int16(POLLERR))
  /// The peer hung up (reported, never asked for). The corresponding C constant is `POLLHUP`.
  public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
  /// The descriptor is not open (reported, never asked for). The corresponding C constant is
  /// `POLLNVAL`.
  public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// One descriptor of a ``Poll/wait(_:until:)``: what to wait for, and what happened.
///
/// Laid out as C's `struct pollfd`, so an array of them is handed to `poll(2)` as it is.
public struct PollEntry: Sendable {
  private var raw: pollfd

  /// Waits on `descriptor` for `events`.
  public init(_ descriptor: FileDescriptor, for events: PollEvents) {
    raw = pollfd(fd: descriptor.rawValue, events: events.rawValue, revents: 0)
  }

  /// The descriptor.
  public var descriptor: FileDescriptor { FileDescriptor(rawValue: raw.fd) }

  /// What the entry waits for.
  public var events: PollEvents { PollEvents(rawValue: raw.events) }

  /// What the last wait found; empty when the entry was not ready.
  public var returned: PollEvents { PollEvents(rawValue: raw.revents) }

  /// Whether the last wait found anything on this descriptor (readiness, an error, a hang-up).
  public var isReady: Bool { raw.revents != 0 }

  fileprivate mutating func clear() { raw.revents = 0 }
}

/// `poll(2)` with a deadline instead of a timeout: an interrupted wait (`EINTR`) goes on with
/// the time that is left, and the time is rounded up so that a wait never ends just early.
///
/// ```swift
/// var entries = [PollEntry(socket, for: .readable), PollEntry(wake, for: .readable)]
/// if try Poll.wait(&entries, until: .now + .seconds(5)) == 0 { … the deadline passed … }
/// ```
public enum Poll {
  /// Waits until one of `entries` is ready or `deadline` passes (never, when `nil`).
  ///
  /// - Returns: How many entries are ready (see ``PollEntry/returned``); 0 once the deadline
  ///   has passed.
  /// - Throws: `Errno` when `poll(2)` fails other than by an interruption.
  @discardableResult
  public static func wait(_ entries: inout [PollEntry], until deadline: ContinuousClock.Instant?)
    throws(Errno) -> Int
  {
    while true {
      for index in entries.indices { entries[index].clear() }
      let timeout = deadline.map { milliseconds($0 - .now) } ?? -1
      let ready = entries.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: pollfd.self) {
          poll($0.baseAddress, nfds_t($0.count), timeout)
        }
      }
      if ready >= 0 { return Int(ready) }
      let error = Errno.last
      guard error == .interrupted else { throw error }
      if let deadline, deadline <= .now { return 0 }
    }
  }

  /// `duration` in whole milliseconds for `poll(2)`, rounded up; 0 for a duration that has
  /// passed.
  public static func milliseconds(_ duration: Duration) -> CInt {
    let (seconds, attoseconds) = duration.components
    guard seconds < Int64(CInt.max / 1000) else { return .max }
    let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return CInt(clamping: max(0, total))
  }
}

extension FileDescriptor {
  /// Waits until this descriptor is ready for `events`, or `deadline` passes (never, when
  /// `nil`).
  ///
  /// - Returns: What happened (which may be an error or a hang-up rather than `events`);
  ///   empty when the deadline passed first.
  /// - Throws: `Errno` when `poll(2)` fails other than by an interruption.
  @discardableResult
  public func wait(for events: PollEvents, until deadline: ContinuousClock.Instant? = nil)
    throws(Errno) -> PollEvents
  {
    var entries = [PollEntry(self, for: events)]
    try Poll.wait(&entries, until: deadline)
    return entries[0].returned
  }
}
