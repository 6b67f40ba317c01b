import FerrySystem

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
    case nobodyListening(Errno)
    /// The deadline passed.
    case timedOut
    /// The peer closed the connection.
    case closed
    /// Another failure of a named call.
    case system(call: String, Errno)

    package var description: String {
      switch self {
      case .nobodyListening(let error): return "nothing listens there (\(error))"
      case .timedOut: return "timed out"
      case .closed: return "the connection was closed"
      case .system(let call, let error): return "\(call): \(error)"
      }
    }
  }

  package let descriptor: Int32

  /// Connects to the socket at `path`.
  ///
  /// - Throws: ``Failure``; ``Failure/nobodyListening(_:)`` when there is no socket or
  ///   nothing accepts on it.
  package init(connectingTo path: String, within timeout: Duration) throws(Failure) {
    let type =
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | Int32(SOCK_NONBLOCK.rawValue)
    let descriptor = socket(AF_UNIX, type, 0)
    guard descriptor >= 0 else { throw .system(call: "socket", .last) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      close(descriptor)
      throw .system(call: "connect", .fileNameTooLong)
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
      switch Errno.last {
      case .resourceTemporarilyUnavailable, .nowInProgress, .interrupted:
        // The listener's backlog is full: wait for room.
        do {
          try Self.wait(descriptor, for: .writable, deadline: .now + timeout)
        } catch {
          close(descriptor)
          throw error
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
        if pending != 0 {
          close(descriptor)
          let error = Errno(rawValue: pending)
          throw error == .connectionRefused || error == .noSuchFileOrDirectory
            ? .nobodyListening(error) : .system(call: "connect", error)
        }
      case let error
      where [.noSuchFileOrDirectory, .connectionRefused, .notDirectory].contains(error):
        close(descriptor)
        throw .nobodyListening(error)
      case let error:
        close(descriptor)
        throw .system(call: "connect", error)
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
      let sent: Int
      do throws(Errno) {
        sent = try Errno.retryingInterrupts {
          vectors[index...].withUnsafeMutableBufferPointer { buffer -> Int in
            var message = msghdr()
            message.msg_iov = buffer.baseAddress
            message.msg_iovlen = buffer.count
            return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
          }
        }
      } catch .wouldBlock {
        try Self.wait(descriptor, for: .writable, deadline: .now + timeout)
        continue
      } catch .brokenPipe, .connectionReset {
        throw .closed
      } catch {
        throw .system(call: "sendmsg", error)
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
      do throws(Errno) {
        return try Errno.retryingInterrupts {
          decoder.read(atMost: decoder.suggestedReadSize) { buffer in
            recv(descriptor, buffer.baseAddress, buffer.count, 0)
          }
        }
      } catch .wouldBlock {
        try Self.wait(descriptor, for: .readable, deadline: deadline)
      } catch .connectionReset {
        return 0
      } catch {
        throw .system(call: "recv", error)
      }
    }
  }

  /// Whether bytes (or the end of the stream) wait to be read, without waiting.
  package func hasInput() -> Bool {
    (try? FileDescriptor(rawValue: descriptor).wait(for: .readable, until: .now)).map {
      !$0.isEmpty
    } ?? false
  }

  /// Waits until `descriptor` is ready for `events`, or `deadline` passes.
  static func wait(_ descriptor: Int32, for events: PollEvents, deadline: ContinuousClock.Instant?)
    throws(Failure)
  {
    let found: PollEvents
    do throws(Errno) {
      found = try FileDescriptor(rawValue: descriptor).wait(for: events, until: deadline)
    } catch {
      throw .system(call: "poll", error)
    }
    if found.isEmpty { throw .timedOut }
  }
}
