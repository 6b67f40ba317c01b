import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Who is at the other end of a Unix socket, as the kernel recorded it when the peer
/// connected (`SO_PEERCRED`): it cannot be forged by the peer.
///
/// ```swift
/// let peer = try await PeerCredentials.of(channel)
/// if case .refuse(let reason) = peer.admission(byUserID: getuid()) { … }
/// ```
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
  /// The peer's process id.
  public var pid: Int32
  /// The peer's effective user id.
  public var uid: UInt32
  /// The peer's effective group id.
  public var gid: UInt32

  /// Creates credentials (for tests and for a decision on values read elsewhere).
  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// `pid 123 uid 1000 gid 1000`.
  public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

  /// Whether a peer may use the broker.
  public enum Admission: Hashable, Sendable {
    /// The peer is the broker's own user.
    case admit
    /// The peer is someone else; the reason is one line for the ERROR frame and the log.
    case refuse(reason: String)
  }

  /// Whether the broker running as `brokerUID` admits this peer: only its own user, root
  /// included — the pasteboards hold what that user copied, passwords among it.
  public func admission(byUserID brokerUID: UInt32) -> Admission {
    if uid == brokerUID { return .admit }
    return .refuse(
      reason: "this broker belongs to uid \(brokerUID); connections from uid \(uid) are refused")
  }

  /// The credentials of the peer of a connected Unix-socket channel.
  ///
  /// NIO has no typed accessor for `SO_PEERCRED`; a socket channel is a
  /// `SocketOptionProvider`, whose `unsafeGetSocketOption` runs `getsockopt(2)` on the
  /// channel's own descriptor, on its event loop, with ``RawCredentials`` laid out as the
  /// kernel's `struct ucred`.
  ///
  /// - Throws: `IOError` from `getsockopt`, or ``PeerCredentialsError`` when the channel is
  ///   not a socket.
  public static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
    guard let provider = channel as? any SocketOptionProvider else {
      return channel.eventLoop.makeFailedFuture(PeerCredentialsError.notASocket)
    }
    let future: EventLoopFuture<RawCredentials> = provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    return future.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
  }

  /// The kernel's `struct ucred` (`<sys/socket.h>`, visible only under `_GNU_SOURCE`, so
  /// Swift's Glibc module does not import it): `pid_t`, `uid_t`, `gid_t`.
  struct RawCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }
}

/// Why a peer's credentials could not be read.
public enum PeerCredentialsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The channel has no socket to ask.
  case notASocket

  public var description: String { "the connection is not a socket; its peer is unknown" }
}
