import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Telling a service manager that the daemon is ready: systemd's `sd_notify("READY=1")`
/// protocol, a datagram on the socket named by `$NOTIFY_SOCKET`, written here without
/// libsystemd (it is one `sendto`).
///
/// With `Type=notify` in the unit, `systemctl --user start ferry` returns once the socket
/// accepts connections, so a `pbcopy` right after it finds the broker.
enum ServiceReadiness {
  /// Sends `READY=1` (and a status line) when `$NOTIFY_SOCKET` is set; does nothing otherwise.
  ///
  /// - Returns: Whether the message was sent.
  @discardableResult
  static func notifyReady(
    status: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
    return send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())", to: path)
  }

  /// Sends one datagram to the AF_UNIX socket at `path` (`@name`: the abstract namespace).
  static func send(_ message: String, to path: String) -> Bool {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    let abstract = bytes.first == UInt8(ascii: "@")
    if abstract { bytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let payload = Array(message.utf8)
    let sent = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        sendto(descriptor, payload, payload.count, Int32(MSG_NOSIGNAL), address, length)
      }
    }
    return sent == payload.count
  }
}
