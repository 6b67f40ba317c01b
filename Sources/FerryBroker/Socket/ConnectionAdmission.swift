import FerryProtocol
import FerrySystem
import NIOCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How many connections the broker serves at once, and which one gives way when a new one
/// arrives at the limit.
///
/// The limit keeps the broker below its descriptor limit (`RLIMIT_NOFILE`): past it,
/// `accept` fails and nobody is served. A connection accepted at the limit takes the place of
/// the connection that has waited longest for its next request (a client that connected and
/// said nothing, or one between requests); that one gets `ERROR busy` and is closed. When
/// every connection is in the middle of a request (a watch included), the new one gets
/// `ERROR busy` instead. So a flood of silent connections never locks out `ferry status`.
///
/// ```swift
/// switch admission.admit(channel) {
/// case .admitted(let ticket): …   // ticket.idle() / ticket.busy(), ticket.leave()
/// case .refused: …                 // already answered and closed
/// }
/// ```
final class ConnectionAdmission: Sendable {
  /// What ``admit(_:)`` decided.
  enum Decision {
    /// Served; the ticket follows the connection's state until it leaves.
    case admitted(Ticket)
    /// Answered with `ERROR busy` and closed.
    case refused
  }

  /// A served connection's place.
  struct Ticket: Sendable {
    let id: Int
    let admission: ConnectionAdmission

    /// The connection waits for the client's next request.
    func idle() { admission.mark(id, idle: true) }
    /// The connection serves a request.
    func busy() { admission.mark(id, idle: false) }
    /// The connection has ended.
    func leave() { admission.remove(id) }
  }

  private struct Entry {
    var channel: any Channel
    var idleSince: ContinuousClock.Instant?
  }

  /// The most connections served at once.
  let limit: Int
  private let entries = TrackedMutex<[Int: Entry]>([:])
  private let counter = Atomic<Int>(0)

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// Admits `channel`, making room by closing the connection idle longest when the limit is
  /// reached, or refuses it. Call on the channel's event loop, before it reads.
  func admit(_ channel: any Channel) -> Decision {
    let id = counter.wrappingAdd(1, ordering: .relaxed).newValue
    let (admitted, evicted) = entries.withLock { entries -> (Bool, (any Channel)?) in
      var evicted: (any Channel)?
      if entries.count >= limit {
        let idle = entries.compactMap { key, entry in entry.idleSince.map { (key, $0) } }
        guard let oldest = idle.min(by: { $0.1 < $1.1 }) else { return (false, nil) }
        evicted = entries.removeValue(forKey: oldest.0)?.channel
      }
      entries[id] = Entry(channel: channel, idleSince: .now)
      return (true, evicted)
    }
    if let evicted {
      Self.refuse(
        evicted,
        "the broker serves \(limit) connections at most; this one waited longest and gave way")
    }
    guard admitted else {
      Self.refuse(
        channel, "the broker serves \(limit) connections at most, all of them busy; try again")
      return .refused
    }
    return .admitted(Ticket(id: id, admission: self))
  }

  /// The number of connections served.
  var count: Int { entries.withLock { $0.count } }

  private func mark(_ id: Int, idle: Bool) {
    entries.withLock { $0[id]?.idleSince = idle ? .now : nil }
  }

  private func remove(_ id: Int) {
    _ = entries.withLock { $0.removeValue(forKey: id) }
  }

  /// Sends `ERROR busy` and closes the channel once it has left (or failed).
  private static func refuse(_ channel: any Channel, _ message: String) {
    guard let frame = try? Frame.json(.error, ErrorBody(code: .busy, message: message)) else {
      channel.close(promise: nil)
      return
    }
    channel.writeAndFlush(ByteBuffer(frame: frame)).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  /// `ERROR busy` as it goes on the wire, for connections shed without a channel.
  static let busyFrame: [UInt8] =
    (try? Frame.json(
      .error,
      ErrorBody(code: .busy, message: "the broker is out of file descriptors; try again")
    ).encoded()) ?? []
}

extension ConnectionAdmission {
  /// Descriptors kept free for everything but connections: spool files, converter pipes,
  /// the reserve descriptor, the socket directory's watch.
  static let spareDescriptors = 16

  /// The limit the descriptor limit allows: what is left of the soft `RLIMIT_NOFILE` after
  /// the descriptors open now and the spare ones, two per connection (its socket and a file
  /// being spooled or read).
  static func limitForDescriptors() -> Int {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0,
      limit.rlim_cur != rlim_t.max
    else { return 1 << 16 }
    let soft = Int(clamping: limit.rlim_cur)
    return max(1, (soft - openDescriptorCount() - spareDescriptors) / 2)
  }

  /// The number of descriptors the process has open (`/proc/self/fd`), or a guess.
  static func openDescriptorCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return 64 }
    defer { closedir(directory) }
    var count = -3  // `.`, `..` and the directory's own descriptor
    while readdir(directory) != nil { count += 1 }
    return max(count, 0)
  }
}
