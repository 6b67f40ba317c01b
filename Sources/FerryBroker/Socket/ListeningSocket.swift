#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broker's listening Unix socket, made by hand and handed to NIO: bound, made 0600 and
/// only then listening, with its descriptor known (``AcceptShedding`` accepts on it directly)
/// and the socket file's identity kept, so that the broker can tell when the file is gone or
/// replaced and never removes another broker's.
struct ListeningSocket {
  /// The socket file's device and inode.
  struct Identity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path` (not following a link), `nil` when there is none.
    init?(path: String) {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  /// The listening descriptor; NIO owns it once the listener is registered.
  let descriptor: Int32
  let identity: Identity

  /// Binds a socket at `path` (which must not exist), makes it 0600 and listens.
  ///
  /// - Throws: ``BrokerSocketServerError``.
  static func make(at path: String, backlog: Int32) throws(BrokerSocketServerError)
    -> ListeningSocket
  {
    let descriptor = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
    guard descriptor >= 0 else { throw .cannotListen(path, reason: describe(errno)) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      close(descriptor)
      throw .cannotListen(path, reason: "the path is too long for a socket")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else {
      let reason = describe(errno)
      close(descriptor)
      throw .cannotListen(path, reason: reason)
    }
    guard chmod(path, 0o600) == 0, let identity = Identity(path: path) else {
      let reason = describe(errno)
      close(descriptor)
      unlink(path)
      throw .cannotSecure(path, reason: reason)
    }
    guard listen(descriptor, backlog) == 0 else {
      let reason = describe(errno)
      close(descriptor)
      unlink(path)
      throw .cannotListen(path, reason: reason)
    }
    return ListeningSocket(descriptor: descriptor, identity: identity)
  }

  private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
