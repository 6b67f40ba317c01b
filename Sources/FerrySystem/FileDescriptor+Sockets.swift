import CFerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// A stream socket connected to the Unix-domain socket at `path`, close-on-exec.
  ///
  /// - Throws: `Errno`: `ENAMETOOLONG` when `path` does not fit a socket address, and what
  ///   `socket(2)` or `connect(2)` said (`ENOENT`, `ECONNREFUSED`, …).
  public static func connectedUnixStream(path: String) throws(Errno) -> FileDescriptor {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw .fileNameTooLong
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let descriptor = try Errno.retryingInterrupts {
      socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let error = Errno.last
      _ = Glibc.close(descriptor)
      throw error
    }
    return FileDescriptor(rawValue: descriptor)
  }

  /// One `sendmsg(2)` of `bytes`, with `descriptors` beside them (`SCM_RIGHTS`), never
  /// waiting; retried when interrupted. The receiver gets duplicates: the caller still owns
  /// `descriptors`.
  ///
  /// - Returns: How many bytes were sent (the descriptors went with the first of them);
  ///   `nil` when the socket is full (`EAGAIN`).
  /// - Throws: `Errno` when the send fails (`EPIPE`: the peer has gone).
  public func sendMessage(_ bytes: UnsafeRawBufferPointer, descriptors: [Int32]) throws(Errno)
    -> Int?
  {
    do {
      return try Errno.retryingInterrupts {
        descriptors.withUnsafeBufferPointer { fds in
          cferry_send_with_descriptors(
            rawValue, bytes.baseAddress, UInt(bytes.count), fds.baseAddress, Int32(fds.count))
        }
      }
    } catch .wouldBlock {
      return nil
    }
  }

  /// One `recvmsg(2)` into `buffer`, taking the descriptors that came beside the bytes (at
  /// most `descriptors.count`, close-on-exec) into `descriptors`, never waiting; retried when
  /// interrupted.
  ///
  /// - Returns: How many bytes and how many descriptors came (0 bytes: the peer closed the
  ///   connection); `nil` when nothing has yet (`EAGAIN`).
  /// - Throws: `Errno` when the receive fails.
  public func receiveMessage(
    into buffer: UnsafeMutableRawBufferPointer, descriptors: inout [Int32]
  ) throws(Errno) -> (bytes: Int, descriptors: Int)? {
    var received: Int32 = 0
    do {
      let count = try Errno.retryingInterrupts {
        descriptors.withUnsafeMutableBufferPointer { fds in
          cferry_receive_with_descriptors(
            rawValue, buffer.baseAddress, UInt(buffer.count), fds.baseAddress, Int32(fds.count),
            &received)
        }
      }
      return (count, Int(received))
    } catch .wouldBlock {
      return nil
    }
  }
}
