#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A connected, non-blocking Unix stream socket with deadlines on every wait, for the
/// blocking client. Writes use `MSG_NOSIGNAL`: a broker that goes away is an error, never a
/// `SIGPIPE`.
package final class UnixSocket {
  /// Why a socket call failed.
  package enum Failure: Error, Hashable {
    /// Nothing listens at the path (`ENOENT`, `ECONNREFUSED`).
    case nobodyListening(errno: Int32)
    /// The deadline passed.
    case timedOut
    /// The peer closed the connection.
    case closed
    /// Another failure of a named call.
    case system(call: String, errno: Int32)

    package var description: String {
      switch self {
      case .nobodyListening(let error): return "nothing listens there (\(describe(error)))"
      case .timedOut: return "timed out"
      case .closed: return "the connection was closed"
      case .system(let call, let error): return "\(call): \(describe(error))"
      }
    }
  }

  package let descriptor: Int32

  /// Connects to the socket at `path`.
  ///
  /// - Throws: ``Failure``; ``Failure/nobodyListening(errno:)`` when there is no socket or
  ///   nothing accepts on it.
  package init(connectingTo path: String, within timeout: Duration) throws(Failure) {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | Int32(SOCK_NONBLOCK.rawValue)
    let descriptor = socket(AF_UNIX, type, 0)
    guard descriptor >= 0 else { throw .system(call: "socket", errno: errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      close(descriptor)
      throw .system(call: "connect", errno: ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    if result != 0 {
      let error = errno
      switch error {
      case EAGAIN, EINPROGRESS, EINTR:
        // The listener's backlog is full: wait for room.
        do {
          try Self.wait(descriptor, for: Int16(POLLOUT), deadline: .now + timeout)
        } catch {
          close(descriptor)
          throw error
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
        if pending != 0 {
          close(descriptor)
          throw pending == ECONNREFUSED || pending == ENOENT
            ? .nobodyListening(errno: pending) : .system(call: "connect", errno: pending)
        }
      case ENOENT, ECONNREFUSED, ENOTDIR:
        close(descriptor)
        throw .nobodyListening(errno: error)
      default:
        close(descriptor)
        throw .system(call: "connect", errno: error)
      }
    }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Whether something accepts connections at `path` right now.
  package static func isAnswering(at path: String) -> Bool {
    do {
      _ = try UnixSocket(connectingTo: path, within: .milliseconds(500))
      return true
    } catch .nobodyListening {
      return false
    } catch {
      return true  // a socket that exists but is slow or odd: never take it for stale
    }
  }

  /// Sends every byte of `parts`, in order, waiting for room until `timeout` passes without
  /// progress.
  package func send(_ parts: [UnsafeRawBufferPointer], timeout: Duration) throws(Failure) {
    var vectors = parts.filter { !$0.isEmpty }.map {
      iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
    }
    var index = 0
    while index < vectors.count {
      let sent = vectors[index...].withUnsafeMutableBufferPointer { buffer -> Int in
        var message = msghdr()
        message.msg_iov = buffer.baseAddress
        message.msg_iovlen = buffer.count
        return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        let error = errno
        if error == EINTR { continue }
        if error == EAGAIN || error == EWOULDBLOCK {
          try Self.wait(descriptor, for: Int16(POLLOUT), deadline: .now + timeout)
          continue
        }
        if error == EPIPE || error == ECONNRESET { throw .closed }
        throw .system(call: "sendmsg", errno: error)
      }
      var remaining = sent
      while remaining > 0, index < vectors.count {
        if remaining >= vectors[index].iov_len {
          remaining -= vectors[index].iov_len
          index += 1
        } else {
          vectors[index].iov_base = vectors[index].iov_base!.advanced(by: remaining)
          vectors[index].iov_len -= remaining
          remaining = 0
        }
      }
    }
  }

  /// Reads what is available into `decoder`, waiting until `deadline` (forever when `nil`)
  /// for something to arrive.
  ///
  /// - Returns: The number of bytes read; 0 when the peer closed the connection.
  package func receive(into decoder: inout FrameDecoder, deadline: ContinuousClock.Instant?)
    throws(Failure) -> Int
  {
    while true {
      let count = decoder.read(atMost: decoder.suggestedReadSize) { buffer in
        recv(descriptor, buffer.baseAddress, buffer.count, 0)
      }
      if count >= 0 { return count }
      let error = errno
      if error == EINTR { continue }
      if error == EAGAIN || error == EWOULDBLOCK {
        try Self.wait(descriptor, for: Int16(POLLIN), deadline: deadline)
        continue
      }
      if error == ECONNRESET { return 0 }
      throw .system(call: "recv", errno: error)
    }
  }

  /// Whether bytes (or the end of the stream) wait to be read, without waiting.
  package func hasInput() -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0 && entry.revents != 0
  }

  /// Waits until `descriptor` is ready for `events`, or `deadline` passes.
  static func wait(_ descriptor: Int32, for events: Int16, deadline: ContinuousClock.Instant?)
    throws(Failure)
  {
    while true {
      var timeout: Int32 = -1
      if let deadline {
        let left = deadline - .now
        if left <= .zero { throw .timedOut }
        let (seconds, attoseconds) = left.components
        timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      }
      var entry = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&entry, 1, timeout)
      if ready > 0 { return }
      if ready == 0 { continue }  // the loop re-checks the deadline
      if errno == EINTR { continue }
      throw .system(call: "poll", errno: errno)
    }
  }
}

/// The text of an `errno` value.
package func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
