import FerrySystem
import FoundationEssentials
import SelectionBackendCore

/// A Wayland client connection that speaks the wire protocol itself: messages of 32-bit
/// words on a Unix socket, descriptors passed beside them (SCM_RIGHTS).
///
/// Ferry needs eight interfaces of it (display, registry, callback, seat and the four of
/// data-control), and speaking them directly keeps `pbcopy`, `pbpaste` and `ferry` static
/// executables: Debian ships libwayland-client as a shared library only, and a static
/// program cannot load one. Not thread-safe: the connection's thread owns it.
final class WaylandWire {
  /// The socket.
  let socket: FileDescriptor
  private var output: [UInt8] = []
  private var outputDescriptors: [Int32] = []
  /// The events read so far and not yet handled, and the descriptors that came with them.
  private var decoder = WaylandEventDecoder()
  /// Where `recvmsg` reads to.
  private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
  private var nextID: UInt32 = 2  // 1 is wl_display
  private var freeIDs: [UInt32] = []

  /// The display object.
  static let display: UInt32 = 1

  /// Connects to the compositor `name`: a socket path when absolute, else a name in
  /// `$XDG_RUNTIME_DIR`; `nil` is `$WAYLAND_DISPLAY`, or `wayland-0`.
  convenience init(name: String?) throws(BackendError) {
    let environment = ProcessEnvironment.value(of:)
    let display = name ?? environment("WAYLAND_DISPLAY") ?? "wayland-0"
    let path: String
    if display.hasPrefix("/") {
      path = display
    } else {
      guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else {
        throw .cannotConnect(
          "cannot connect to the Wayland display \(display): XDG_RUNTIME_DIR is not set")
      }
      path = runtime + "/" + display
    }
    let socket: FileDescriptor
    do {
      socket = try FileDescriptor.connectedUnixStream(path: path)
    } catch .fileNameTooLong {
      throw .cannotConnect("cannot connect to the Wayland display \(display): the path is too long")
    } catch {
      throw .cannotConnect("cannot connect to the Wayland display \(display): \(error)")
    }
    self.init(connectedTo: socket)
  }

  /// Speaks the protocol on `socket`, a stream socket already connected to a compositor (or
  /// to a test playing one); the wire owns it from now on, and makes it non-blocking.
  init(connectedTo socket: FileDescriptor) {
    try? socket.setNonBlocking()
    self.socket = socket
  }

  private var isOpen = true

  deinit { close() }

  /// Closes the socket and the descriptors that came or wait to go, once: a second close of
  /// a descriptor number could close whatever file the process opened under it since.
  func close() {
    guard isOpen else { return }
    isOpen = false
    try? socket.close()
    for descriptor in decoder.takeDescriptors() + outputDescriptors {
      try? FileDescriptor(rawValue: descriptor).close()
    }
    outputDescriptors = []
  }

  // MARK: Object ids

  /// An id for a new object of this client: a freed one first, as the server requires
  /// (libwayland's servers accept only the next id or one they deleted).
  func newID() -> UInt32 {
    if let reused = freeIDs.popLast() { return reused }
    defer { nextID += 1 }
    return nextID
  }

  /// The server deleted `id` (`wl_display.delete_id`): it may be used again.
  func release(_ id: UInt32) {
    if id < 0xFF00_0000 { freeIDs.append(id) }
  }

  // MARK: Requests

  /// One argument of a request.
  enum Argument {
    case uint(UInt32)
    case int(Int32)
    /// A string; `nil` is the null string.
    case string(String?)
    /// An object id (0: null).
    case object(UInt32)
    case newID(UInt32)
    /// A descriptor; the wire sends a duplicate of its own, so the caller may close its
    /// own at once, even while the request waits to be sent.
    case descriptor(Int32)
  }

  /// Queues `request`, named by its generated opcode (`WaylandProtocol.swift`), to `object`;
  /// ``flush()`` sends it.
  func send(_ object: UInt32, _ request: some WaylandOpcode, _ arguments: [Argument] = []) {
    send(object, request.rawValue, arguments)
  }

  /// Queues the request of `opcode`; ``flush()`` sends it.
  private func send(_ object: UInt32, _ opcode: UInt16, _ arguments: [Argument] = []) {
    var body: [UInt8] = []
    func word(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { body += $0 } }
    for argument in arguments {
      switch argument {
      case .uint(let value), .object(let value), .newID(let value): word(value)
      case .int(let value): word(UInt32(bitPattern: value))
      case .string(nil): word(0)
      case .string(let text?):
        let bytes = Array(text.utf8) + [0]
        word(UInt32(bytes.count))
        body += bytes
        body += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
      case .descriptor(let descriptor):
        if let copy = try? FileDescriptor(rawValue: descriptor).duplicateCloseOnExec() {
          outputDescriptors.append(copy.rawValue)
        }
      }
    }
    withUnsafeBytes(of: object.littleEndian) { output += $0 }
    withUnsafeBytes(of: (UInt32(8 + body.count) << 16 | UInt32(opcode)).littleEndian) {
      output += $0
    }
    output += body
  }

  /// Whether requests wait to be sent.
  var hasOutput: Bool { !output.isEmpty }

  /// Sends what it can of the queued requests without blocking.
  ///
  /// - Throws: ``BackendError/connectionLost`` when the compositor has gone.
  func flush() throws(BackendError) {
    while !output.isEmpty {
      let descriptors = outputDescriptors
      // Descriptors go with the first bytes they belong to; a partial send keeps the rest.
      let attempt = output.withUnsafeBytes { bytes in
        Result { () throws(Errno) in try socket.sendMessage(bytes, descriptors: descriptors) }
      }
      guard case .success(let count) = attempt else { throw .connectionLost }
      guard let sent = count else { return }  // full: the thread waits until it takes more
      // The kernel sent duplicates of its own.
      for descriptor in descriptors { try? FileDescriptor(rawValue: descriptor).close() }
      outputDescriptors = []
      output.removeFirst(sent)
    }
  }

  // MARK: Events

  /// Reads what has arrived without blocking, all of it, up to ``maximumRead`` bytes before
  /// the caller handles it.
  ///
  /// The compositor's socket must be drained as fast as it fills: a selection of 20,000
  /// types is some 900 KB of `offer` events sent to every data-control client at once, and
  /// libwayland 1.21's servers (sway 1.7's) disconnect a client whose socket stays full — so
  /// reading a chunk and handling it before reading the next lost Ferry its connection.
  ///
  /// - Returns: `false` at the end of the stream (the compositor closed the connection).
  /// - Throws: ``BackendError/connectionLost`` when the socket fails.
  func receive() throws(BackendError) -> Bool {
    var descriptors = [Int32](repeating: -1, count: 28)
    var read = 0
    while read < Self.maximumRead {
      let attempt = readBuffer.withUnsafeMutableBytes { bytes in
        Result { () throws(Errno) in
          try socket.receiveMessage(into: bytes, descriptors: &descriptors)
        }
      }
      guard case .success(let message) = attempt else { throw .connectionLost }
      guard let (count, received) = message else { return true }  // all of it read
      decoder.feed(readBuffer[..<count], descriptors: Array(descriptors[..<received]))
      if count == 0 { return read > 0 }  // the end: after what came before it is handled
      read += count
    }
    return true
  }

  /// The most bytes ``receive()`` reads before they are handled: what the compositor may send
  /// in one burst (its socket holds about 200 KB), many times over.
  static let maximumRead = 8 << 20

  /// The next whole event, taken off the input; `nil` until more arrives.
  ///
  /// - Parameter interfaceOf: The interface of each object the client knows.
  /// - Throws: ``WaylandProtocolError`` when the compositor broke the protocol; the wire
  ///   then reads nothing more.
  func nextMessage(interfaceOf: (UInt32) -> WaylandInterface?) throws(WaylandProtocolError)
    -> WaylandMessage?
  {
    try decoder.next(interfaceOf: interfaceOf)
  }

  /// The compositor closed the connection: whether it did so between messages.
  ///
  /// - Throws: ``WaylandProtocolError`` when it closed in the middle of one.
  func endOfStream() throws(WaylandProtocolError) {
    try decoder.finish()
  }
}
