import FerryTestSupport
import Foundation
import WaylandSelections

#if canImport(Glibc)
  import Glibc
#endif

/// The compositor's end of a socket pair whose other end is a Ferry connection: it answers
/// the connection's setup as sway 1.7 does (a seat, `zwlr_data_control_manager_v1` v2, empty
/// selections) and every later `wl_display.sync`, and writes whatever bytes a test gives it —
/// a compositor with no compositor behind it, for feeding the client malformed events.
///
/// ```swift
/// let compositor = try FakeCompositor()
/// let backend = try await compositor.connectBackend()
/// compositor.write(WaylandBytes.message(object: 99, opcode: 0))   // an object never made
/// ```
///
/// Requests are read on a thread of its own, which also answers them; writes come from the
/// test's thread too, a whole message at a time under a lock.
final class FakeCompositor: @unchecked Sendable {
  /// The end handed to the client.
  let clientEnd: Int32
  private let socket: Int32
  private let lock = NSLock()
  private var registry: UInt32 = 0
  private var boundByName: [UInt32: UInt32] = [:]
  private var device: UInt32 = 0
  private var sources: [UInt32] = []
  private var requests: [(object: UInt32, opcode: UInt16)] = []
  private var closed = false
  /// Whether the answering thread runs: then it alone closes the socket, as it ends.
  private var answering = false
  private var written = 0

  /// The globals advertised, by name: the seat and the wlr manager.
  static let seatName: UInt32 = 1
  static let managerName: UInt32 = 2

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        == 0
    else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    socket = ends[0]
    clientEnd = ends[1]
  }

  deinit { close() }

  /// Connects a backend to the client end and answers its setup; from then on the
  /// compositor answers every `sync` on its own thread until ``close()``.
  func connectBackend() async throws -> WaylandSelectionBackend {
    startAnswering()
    let end = clientEnd
    return try await DetachedThread.run {
      // A minute for each setup round trip, not a real compositor's 10 s: the fake answers in
      // microseconds, and only a starved machine (a clean clone's run beside a sanitized one
      // and two fuzzers) made it miss 10 s (docs/TESTING.md, flakes).
      try WaylandSelectionBackend(
        connectedTo: FileDescriptor(rawValue: end), setupTimeout: .seconds(60))
    }
  }

  /// The seat's id, the data device's, and the sources the client made so far.
  var seat: UInt32 { lock.withLock { boundByName[Self.seatName] ?? 0 } }
  var dataDevice: UInt32 { lock.withLock { device } }
  var manager: UInt32 { lock.withLock { boundByName[Self.managerName] ?? 0 } }
  var dataSources: [UInt32] { lock.withLock { sources } }
  /// How many bytes the compositor wrote so far: the stream offset of the next.
  var bytesWritten: Int { lock.withLock { written } }
  /// How many requests the client sent.
  var requestCount: Int { lock.withLock { requests.count } }

  /// Writes `bytes` (and `descriptors` beside them, SCM_RIGHTS) to the client, whole.
  func write(_ bytes: [UInt8], descriptors: [Int32] = []) {
    lock.withLock {
      guard !closed else { return }
      var offset = 0
      var pending = descriptors
      while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { chunk in
          pending.withUnsafeBufferPointer { fds in
            cferry_test_send(socket, chunk.baseAddress, chunk.count, fds.baseAddress, fds.count)
          }
        }
        if sent < 0 {
          if errno == EINTR || errno == EAGAIN {
            var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, 1000)
            continue
          }
          return
        }
        pending = []
        offset += sent
        written += sent
      }
    }
  }

  /// Shuts the compositor's end for writing: the client reads the end of the stream.
  func hangUp() {
    lock.withLock {
      guard !closed else { return }
      _ = shutdown(socket, Int32(SHUT_WR))
    }
  }

  /// Closes the compositor's end; the client end is the client's.
  ///
  /// While the answering thread runs, the end is shut down, which wakes the thread, and the
  /// thread closes it as it ends: a descriptor closed under a thread still polling it may be
  /// another test's socket pair a moment later, whose requests the thread would then read
  /// and never answer (two tests' setups waited their whole minute so, in loaded runs).
  func close() {
    lock.withLock {
      guard !closed else { return }
      closed = true
      if answering {
        _ = shutdown(socket, Int32(SHUT_RDWR))
      } else {
        _ = Glibc.close(socket)
      }
    }
  }

  // MARK: Answering

  private func startAnswering() {
    lock.withLock { answering = true }
    let started = DetachedThread.start(name: "fake-compositor") { [self] in
      defer {
        lock.withLock {
          closed = true
          _ = Glibc.close(socket)
        }
      }
      var input: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while !lock.withLock({ closed }) {
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 100) >= 0 else {
          if errno == EINTR { continue }
          return
        }
        guard entry.revents != 0 else { continue }
        let count = cferry_test_receive(socket, &buffer, buffer.count)
        if count <= 0 {
          if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
          return  // the client closed its end
        }
        input += buffer[..<count]
        while input.count >= 8 {
          let size = Int(WaylandBytes.word(input, 4) >> 16)
          guard size >= 8, input.count >= size else { break }
          answer(Array(input[..<size]))
          input.removeFirst(size)
        }
      }
    }
    if !started { lock.withLock { answering = false } }
  }

  /// Answers one request as sway would, as far as setup and `sync` go.
  private func answer(_ request: [UInt8]) {
    let object = WaylandBytes.word(request, 0)
    let opcode = UInt16(WaylandBytes.word(request, 4) & 0xFFFF)
    let registry = lock.withLock {
      requests.append((object, opcode))
      return self.registry
    }
    switch (object, opcode) {
    case (1, 1):  // wl_display.get_registry(new id)
      lock.withLock { self.registry = WaylandBytes.word(request, 8) }
    case (1, 0):  // wl_display.sync(new id callback)
      let callback = WaylandBytes.word(request, 8)
      var reply: [UInt8] = []
      if registry != 0, lock.withLock({ boundByName.isEmpty }) {
        reply += WaylandBytes.message(
          object: registry, opcode: 0,
          [.uint(Self.seatName), .string("wl_seat"), .uint(7)])
        reply += WaylandBytes.message(
          object: registry, opcode: 0,
          [.uint(Self.managerName), .string("zwlr_data_control_manager_v1"), .uint(2)])
      }
      reply += WaylandBytes.message(object: callback, opcode: 0, [.uint(0)])  // done
      reply += WaylandBytes.message(object: 1, opcode: 1, [.uint(callback)])  // delete_id
      write(reply)
    case (registry, 0):  // wl_registry.bind(name, interface, version, new id)
      let name = WaylandBytes.word(request, 8)
      let id = WaylandBytes.word(request, request.count - 4)
      lock.withLock { boundByName[name] = id }
    default:
      let manager = lock.withLock { boundByName[Self.managerName] }
      if object == manager, opcode == 1 {  // get_data_device(new id, seat)
        let id = WaylandBytes.word(request, 8)
        lock.withLock { device = id }
        // As sway: the current selections, both empty, right after binding.
        write(
          WaylandBytes.message(object: id, opcode: 1, [.uint(0)])
            + WaylandBytes.message(object: id, opcode: 3, [.uint(0)]))
      } else if object == manager, opcode == 0 {  // create_data_source(new id)
        let id = WaylandBytes.word(request, 8)
        lock.withLock { sources.append(id) }
      }
    }
  }
}

/// Wire bytes, as a compositor writes them: for the tests' hostile events.
enum WaylandBytes {
  /// One argument of a message built by hand.
  enum Argument {
    case uint(UInt32)
    /// A string, NUL and padding added.
    case string(String)
    /// Raw words or bytes, as they are.
    case raw([UInt8])
  }

  /// A message of `object`'s event `opcode`; `size` overrides the header's size field.
  static func message(
    object: UInt32, opcode: UInt16, _ arguments: [Argument] = [], size: Int? = nil
  )
    -> [UInt8]
  {
    var body: [UInt8] = []
    for argument in arguments {
      switch argument {
      case .uint(let value): body += bytes(of: value)
      case .string(let text):
        let content = Array(text.utf8) + [0]
        body += bytes(of: UInt32(content.count)) + content
        body += [UInt8](repeating: 0, count: (4 - content.count % 4) % 4)
      case .raw(let raw): body += raw
      }
    }
    let header = UInt32(truncatingIfNeeded: size ?? (8 + body.count)) << 16 | UInt32(opcode)
    return bytes(of: object) + bytes(of: header) + body
  }

  /// A 32-bit word, little-endian.
  static func bytes(of value: UInt32) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  /// The word at `offset` of `bytes`.
  static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }
}

/// `sendmsg` with descriptors (SCM_RIGHTS), for the fake compositor.
private func cferry_test_send(
  _ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ fds: UnsafePointer<Int32>?,
  _ fdCount: Int
) -> Int {
  var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes), iov_len: count)
  var message = msghdr()
  return withUnsafeMutablePointer(to: &vector) { vectorPointer in
    message.msg_iov = vectorPointer
    message.msg_iovlen = 1
    guard fdCount > 0, let fds else { return sendmsg(socket, &message, Int32(MSG_NOSIGNAL)) }
    let space = Int(cmsgSpace(fdCount * MemoryLayout<Int32>.size))
    let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: 8)
    defer { control.deallocate() }
    control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
    let header = control.assumingMemoryBound(to: cmsghdr.self)
    header.pointee.cmsg_level = SOL_SOCKET
    header.pointee.cmsg_type = Int32(SCM_RIGHTS)
    header.pointee.cmsg_len = Int(cmsgLength(fdCount * MemoryLayout<Int32>.size))
    (control + cmsgLength(0)).copyMemory(from: fds, byteCount: fdCount * MemoryLayout<Int32>.size)
    message.msg_control = control
    message.msg_controllen = space
    return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
  }
}

private func cmsgLength(_ length: Int) -> Int {
  MemoryLayout<cmsghdr>.stride + length
}

private func cmsgSpace(_ length: Int) -> Int {
  MemoryLayout<cmsghdr>.stride + ((length + 7) & ~7)
}

/// `recv` into `buffer`, closing any descriptor that comes (the client sends its pipes'
/// writing ends with `receive`; the fake compositor has no owner to hand them to).
private func cferry_test_receive(_ socket: Int32, _ buffer: inout [UInt8], _ count: Int) -> Int {
  let space = cmsgSpace(28 * MemoryLayout<Int32>.size)
  let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: 8)
  defer { control.deallocate() }
  return buffer.withUnsafeMutableBytes { raw -> Int in
    var vector = iovec(iov_base: raw.baseAddress, iov_len: min(count, raw.count))
    return withUnsafeMutablePointer(to: &vector) { vectorPointer -> Int in
      var message = msghdr()
      message.msg_iov = vectorPointer
      message.msg_iovlen = 1
      message.msg_control = control
      message.msg_controllen = space
      let received = recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC))
      if received >= 0, message.msg_controllen >= cmsgLength(0) {
        let header = control.assumingMemoryBound(to: cmsghdr.self)
        if header.pointee.cmsg_level == SOL_SOCKET, header.pointee.cmsg_type == Int32(SCM_RIGHTS) {
          let fdCount = (Int(header.pointee.cmsg_len) - cmsgLength(0)) / MemoryLayout<Int32>.size
          let fds = (control + cmsgLength(0)).assumingMemoryBound(to: Int32.self)
          for index in 0..<fdCount { _ = Glibc.close(fds[index]) }
        }
      }
      return received
    }
  }
}
