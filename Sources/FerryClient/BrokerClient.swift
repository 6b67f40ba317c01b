import FerryProtocol
import FerrySystem
import JSONText

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

/// A blocking connection to the broker, for command-line tools: no event loop, no threads.
///
/// Every call waits at most ``timeout`` for the broker to make progress (to accept bytes or
/// send some); a transfer of any size goes on as long as bytes move. Calls run one at a
/// time, in order, on one connection. After a failure that leaves the stream out of step
/// (a lost connection, a failed destination), the connection is closed and later calls
/// fail with `connectionLost`.
///
/// ```swift
/// let client = try BrokerClient.connect(clientName: "pbpaste")
/// let served = try client.read(types: ["public.utf8-plain-text"], into: STDOUT_FILENO)
/// ```
public final class BrokerClient {
  /// How long a call waits for the broker to make progress when not told otherwise: longer
  /// than the broker's own 10-second limit for producing a representation.
  public static let defaultTimeout: Duration = .seconds(15)

  /// The socket's path.
  public let socketPath: String
  /// The longest wait for progress.
  public var timeout: Duration
  /// What the broker answered to `hello` (read with the first call's answer).
  public private(set) var hello: HelloResponse

  private var socket: UnixSocket?
  private var decoder = FrameDecoder()
  /// Whether the answer to hello is still to be read.
  private var helloPending = false

  /// Connects to the broker at the default socket and says hello.
  ///
  /// - Parameters:
  ///   - location: The socket; `SocketPath.resolve(uid:)` (FerryProtocol) by default. Its
  ///     directory must be ours and closed to others.
  ///   - timeout: The longest wait for progress, for connecting and for every call.
  ///   - clientName: A name for the broker's log.
  ///   - pipelining: When `true`, returns once the hello is sent, and reads its answer with
  ///     the first call's: the call goes out right behind the hello, saving a round trip
  ///     (most of a short paste's time). A refusal of the hello (`forbidden`,
  ///     `unsupportedVersion`) is then thrown by that first call.
  /// - Throws: ``BrokerClientError``: `noBroker` when nothing answers, `unsafeSocket`,
  ///   `forbidden`, `unsupportedVersion`, `timeout`.
  public static func connect(
    to location: SocketPath = .resolve(), timeout: Duration = defaultTimeout,
    clientName: String? = nil, pipelining: Bool = false
  ) throws(BrokerClientError) -> BrokerClient {
    do throws(SocketPathError) {
      try location.checkDirectory()
    } catch .missing {
      throw BrokerClientError(
        code: .noBroker, message: "no broker is running (\(location.directory) does not exist)")
    } catch .pathTooLong(let path, let limit) {
      throw BrokerClientError(
        code: .noBroker,
        message: "no broker can listen at \(path): it is longer than \(limit) bytes")
    } catch {
      throw BrokerClientError(code: .unsafeSocket, message: "refusing the broker socket: \(error)")
    }
    let path = location.path
    var info = stat()
    if lstat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else {
        throw BrokerClientError(
          code: .unsafeSocket,
          message: "refusing \(path): not a socket owned by this user")
      }
    }
    let socket: UnixSocket
    do throws(UnixSocket.Failure) {
      socket = try UnixSocket(connectingTo: path, within: timeout)
    } catch .nobodyListening {
      throw BrokerClientError(
        code: .noBroker, message: "no broker is running (nothing answers at \(path))")
    } catch .timedOut {
      throw BrokerClientError(code: .timeout, message: "connecting to \(path) timed out")
    } catch {
      throw BrokerClientError(
        code: .connectionLost, message: "cannot connect to \(path): \(error.description)")
    }
    let client = try BrokerClient(
      socket: socket, path: path, timeout: timeout, clientName: clientName)
    if !pipelining { try client.completeHello() }
    return client
  }

  private init(socket: UnixSocket, path: String, timeout: Duration, clientName: String?)
    throws(BrokerClientError)
  {
    self.socketPath = path
    self.timeout = timeout
    self.socket = socket
    self.hello = HelloResponse(version: 0, pid: 0)
    // The answer is read by `completeHello`, at once or before the first call's answer.
    try send(Frame(kind: .request, body: HelloRequest(client: clientName).compactJSON.serialized))
    helloPending = true
  }

  /// Reads the answer to hello, if not read yet.
  private func completeHello() throws(BrokerClientError) {
    guard helloPending else { return }
    helloPending = false
    let frame = try nextFrame(within: timeout, waitingFor: "answer")
    switch frame.kind {
    case .response: break
    case .error: throw try brokerError(from: frame)
    default: throw protocolViolation("\(frame.kind) frame instead of an answer to hello")
    }
    let answer = try compact(frame, HelloResponse.init(compact:))
    guard answer.version == WireProtocol.version else {
      close()
      throw BrokerClientError(
        code: .unsupportedVersion,
        message:
          "the broker speaks protocol version \(answer.version), this client \(WireProtocol.version)"
      )
    }
    hello = answer
  }

  /// Closes the connection; later calls fail with `connectionLost`.
  public func close() {
    socket = nil
  }

  /// Whether the connection is open.
  public var isConnected: Bool { socket != nil }

  // MARK: - Operations

  /// Where a representation's bytes come from.
  public enum Source: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A descriptor read to its end (a file, a pipe, standard input), never whole into
    /// memory. The descriptor is not closed.
    case fileDescriptor(Int32)
  }

  /// One representation to write: its type and where its bytes come from.
  public struct Representation: Sendable {
    /// A type identifier or a MIME type.
    public var type: String
    /// The bytes.
    public var source: Source

    /// Creates a representation of `type` whose bytes come from `source`.
    public init(type: String, source: Source) {
      self.type = type
      self.source = source
    }

    /// A representation whose bytes are in memory.
    public static func data(_ data: Data, type: String) -> Representation {
      Representation(type: type, source: .data(data))
    }
  }

  /// Puts one item on a pasteboard, replacing what it held. The broker makes the item only
  /// once every byte has arrived: a failed write leaves the previous item in place.
  ///
  /// ```swift
  /// try client.write([
  ///   .data(profileJSON, type: "com.example.profile"),
  ///   .data(Data("Juan Chavez".utf8), type: "public.utf8-plain-text"),
  /// ])
  /// ```
  ///
  /// - Parameters:
  ///   - representations: The representations, richest first.
  ///   - pasteboard: The pasteboard's name; any name makes a pasteboard.
  ///   - options: How the item may be kept and shown.
  ///   - expires: When the item stops being served, in seconds since 1970.
  /// - Returns: The pasteboard's new change count.
  /// - Throws: ``BrokerClientError``: `unknownType`, `badRequest`, `io` when a source
  ///   descriptor fails (the write is abandoned and the connection closed), and the
  ///   connection failures.
  @discardableResult
  public func write(
    _ representations: [Representation], to pasteboard: String = WireProtocol.defaultPasteboard,
    options: [ItemOption] = [], expires: Double? = nil
  ) throws(BrokerClientError) -> Int {
    let request = WriteRequest(
      pasteboard: pasteboard,
      representations: representations.map { RepresentationHeader(type: $0.type) },
      options: options.isEmpty ? nil : options, expires: expires)
    // While the data streams, an early refusal is looked for among the frames that came in:
    // the hello's answer must not be among them.
    try completeHello()
    try send(.json(.request, request))
    if let refusal = try sendRepresentations(representations.map(\.source)) { throw refusal }
    return try expectResponse(ChangeCountResponse.self).changeCount
  }

  /// Reads the first of `types` the pasteboard serves (conversions included) and writes its
  /// bytes to `descriptor` as they arrive.
  ///
  /// - Parameters:
  ///   - types: Type identifiers or MIME types, preferred first; empty for the first stored
  ///     type of the first item.
  ///   - pasteboard: The pasteboard's name.
  ///   - descriptor: Where the bytes go; not closed.
  /// - Returns: The type served.
  /// - Throws: ``BrokerClientError``: `empty`, `notAvailable`, `unknownType`, `providerFailed`,
  ///   `timeout`, `io` when `descriptor` fails (the connection is closed).
  @discardableResult
  public func read(
    types: [String], from pasteboard: String = WireProtocol.defaultPasteboard,
    into descriptor: Int32
  ) throws(BrokerClientError) -> String {
    // A spooled representation is copied from the broker's file inside the kernel; when that
    // file is gone by the time it is opened (the item was replaced), ask again for the bytes.
    let write = { (bytes: [UInt8]) throws(BrokerClientError) in
      try Self.writeAll(bytes, to: descriptor)
    }
    let answer = try requestRead(types, from: pasteboard, inPlace: true, consume: write)
    guard let file = answer.file, try !copyInPlace(file, to: descriptor) else { return answer.type }
    return try requestRead(types, from: pasteboard, inPlace: nil, consume: write).type
  }

  /// Reads the first of `types` the pasteboard serves into memory.
  ///
  /// - Returns: The type served and its bytes.
  /// - Throws: ``BrokerClientError`` as ``read(types:from:into:)``.
  public func read(
    types: [String], from pasteboard: String = WireProtocol.defaultPasteboard
  ) throws(BrokerClientError) -> (type: String, data: Data) {
    var data = Data()
    let answer = try requestRead(types, from: pasteboard, inPlace: nil) { bytes in
      data.append(contentsOf: bytes)
    }
    return (answer.type, data)
  }

  /// Sends a read and hands the bytes that follow its answer to `consume`.
  private func requestRead(
    _ types: [String], from pasteboard: String, inPlace: Bool?,
    consume: ([UInt8]) throws(BrokerClientError) -> Void
  ) throws(BrokerClientError) -> ReadResponse {
    let request = ReadRequest(pasteboard: pasteboard, types: types, inPlace: inPlace)
    try send(Frame(kind: .request, body: request.compactJSON.serialized))
    return try receiveRead(consume: consume)
  }

  /// Receives the answer to a request served as `read` is — a ``ReadResponse`` and the bytes
  /// — handing the bytes to `consume`.
  func receiveRead(consume: ([UInt8]) throws(BrokerClientError) -> Void) throws(BrokerClientError)
    -> ReadResponse
  {
    let answer = try compact(try responseFrame(), ReadResponse.init(compact:))
    try receiveRepresentation { bytes throws(BrokerClientError) in
      if answer.file != nil { throw protocolViolation("DATA after a file answer") }
      try consume(bytes)
    }
    return answer
  }

  /// What a pasteboard holds: its types, stored and converted, its change count, whether it
  /// is concealed.
  public func types(of pasteboard: String = WireProtocol.defaultPasteboard)
    throws(BrokerClientError) -> PasteboardState
  {
    try send(.json(.request, TypesRequest(pasteboard: pasteboard)))
    return try expectResponse(PasteboardState.self)
  }

  /// Follows pasteboards, calling `handler` with each change, until it returns `false`.
  ///
  /// The connection carries nothing else afterwards and is closed when this returns.
  ///
  /// - Parameters:
  ///   - pasteboards: The pasteboards; `general` and `primary` when `nil`.
  ///   - idleTimeout: Give up with `timeout` when no change comes for this long; `nil` waits
  ///     forever.
  ///   - started: Called once the broker follows the pasteboards: every change from then on
  ///     is reported.
  ///   - handler: Called with each change; returns whether to go on.
  /// - Throws: ``BrokerClientError``.
  public func watch(
    _ pasteboards: [String]? = nil, idleTimeout: Duration? = nil, started: () -> Void = {},
    handler: (PasteboardState) -> Bool
  ) throws(BrokerClientError) {
    defer { close() }
    try send(.json(.request, WatchRequest(pasteboards: pasteboards)))
    _ = try expectResponse(WatchResponse.self)
    started()
    while true {
      let frame = try receiveFrame(within: idleTimeout, waitingFor: "change")
      switch frame.kind {
      case .event:
        guard handler(try decode(PasteboardState.self, from: frame)) else { return }
      case .error:
        throw try brokerError(from: frame)
      default:
        throw protocolViolation("\(frame.kind) frame during watch")
      }
    }
  }

  /// Removes a pasteboard's items.
  ///
  /// - Returns: The pasteboard's new change count.
  @discardableResult
  public func clear(_ pasteboard: String = WireProtocol.defaultPasteboard)
    throws(BrokerClientError) -> Int
  {
    try send(.json(.request, ClearRequest(pasteboard: pasteboard)))
    return try expectResponse(ChangeCountResponse.self).changeCount
  }

  /// Registers a declaration file's types and conversions with the broker.
  ///
  /// - Parameters:
  ///   - name: The file's name, for diagnostics; registering the same name again replaces
  ///     the earlier registration.
  ///   - contents: The file's bytes.
  ///   - allowExampleNamespace: Accept `com.example` identifiers.
  /// - Returns: One line per problem; empty when everything registered.
  /// - Throws: ``BrokerClientError``: `invalidDeclaration` when the file is not a declaration
  ///   file at all.
  public func register(
    declarationNamed name: String, contents: Data, allowExampleNamespace: Bool = false
  ) throws(BrokerClientError) -> [String] {
    try send(
      .json(
        .request,
        RegisterRequest(name: name, allowExampleNamespace: allowExampleNamespace ? true : nil)))
    if let refusal = try sendRepresentations([.data(contents)]) { throw refusal }
    return try expectResponse(RegisterResponse.self).problems
  }

  /// Registers the declaration file at `path`.
  ///
  /// - Throws: ``BrokerClientError``: `io` when the file cannot be opened, and as
  ///   ``register(declarationNamed:contents:allowExampleNamespace:)``.
  public func register(declarationAt path: String, allowExampleNamespace: Bool = false)
    throws(BrokerClientError) -> [String]
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw BrokerClientError(code: .io, message: "cannot open \(path): \(Errno.last)")
    }
    defer { Glibc.close(descriptor) }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let request = RegisterRequest(
      name: name, allowExampleNamespace: allowExampleNamespace ? true : nil,
      directory: Self.directory(of: path))
    try send(.json(.request, request))
    if let refusal = try sendRepresentations([.fileDescriptor(descriptor)]) { throw refusal }
    return try expectResponse(RegisterResponse.self).problems
  }

  /// The absolute directory holding `path` (relative to the working directory when `path` is).
  static func directory(of path: String) -> String? {
    var absolute = path
    if !path.hasPrefix("/") {
      guard let cwd = getcwd(nil, 0) else { return nil }
      defer { free(cwd) }
      absolute = String(cString: cwd) + "/" + path
    }
    let parent = absolute.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    return "/" + parent.joined(separator: "/")
  }

  /// How the broker is doing: version, process, display, pasteboards.
  public func status() throws(BrokerClientError) -> StatusResponse {
    try send(.json(.request, StatusRequest()))
    return try expectResponse(StatusResponse.self)
  }

  // MARK: - Frames

  func send(_ make: @autoclosure () throws -> Frame) throws(BrokerClientError) {
    let frame: Frame
    do {
      frame = try make()
    } catch {
      throw BrokerClientError(code: .internal, message: "cannot encode the request: \(error)")
    }
    let bytes = frame.encoded()
    try bytes.withUnsafeBytes { raw in
      Result { () throws(BrokerClientError) in try sendParts([raw]) }
    }
    .get()
  }

  private func sendParts(_ parts: [UnsafeRawBufferPointer]) throws(BrokerClientError) {
    guard let socket = socket else { throw closedError() }
    do {
      try socket.send(parts, timeout: timeout)
    } catch .closed {
      // The broker may have said why before closing (a refused write, an oversized frame).
      if let reason = try? pendingError() { throw reason }
      throw closing(.connectionLost, "the broker closed the connection")
    } catch .timedOut {
      throw closing(.timeout, "the broker accepted no data for \(Self.seconds(timeout)) s")
    } catch {
      throw closing(.connectionLost, "sending to the broker failed: \(error.description)")
    }
  }

  /// An ERROR frame the broker already sent, if one is waiting.
  private func pendingError() throws(BrokerClientError) -> BrokerClientError? {
    if helloPending {
      // A broker that refused the hello (another version) closes the connection.
      do throws(BrokerClientError) { try completeHello() } catch { return error }
    }
    guard let socket, socket.hasInput() else { return nil }
    let frame = try receiveFrame(within: .milliseconds(100), waitingFor: "error")
    guard frame.kind == .error else { return nil }
    close()
    return try brokerError(from: frame)
  }

  /// Sends each source's bytes as DATA frames and an END frame after each.
  ///
  /// The broker refuses a bad request (an unknown type) as soon as it reads it, then skips
  /// the data. When its ERROR frame is already here, the rest of the data is not sent, only
  /// the END frames the broker counts, so the connection stays in step.
  ///
  /// - Returns: The broker's early refusal, if it sent one.
  private func sendRepresentations(_ sources: [Source]) throws(BrokerClientError)
    -> BrokerClientError?
  {
    var refusal: BrokerClientError?
    for source in sources {
      if refusal == nil {
        switch source {
        case .data(let data): refusal = try streamData(data)
        case .fileDescriptor(let descriptor): refusal = try streamDescriptor(descriptor)
        }
      }
      do {
        try send(Frame(kind: .end))
      } catch {
        if let refusal {
          close()
          return refusal
        }
        throw error
      }
    }
    return refusal
  }

  /// An ERROR frame the broker sent while this client was still sending a request's data.
  private func earlyRefusal() throws(BrokerClientError) -> BrokerClientError? {
    guard let socket, socket.hasInput() else { return nil }
    let frame = try receiveFrame(within: timeout, waitingFor: "answer")
    guard frame.kind == .error else {
      throw protocolViolation("a \(frame.kind) frame while sending data")
    }
    return try brokerError(from: frame)
  }

  private func streamData(_ data: Data) throws(BrokerClientError) -> BrokerClientError? {
    var offset = data.startIndex
    repeat {
      let end = min(offset + FrameLimits.maxDataBody, data.endIndex)
      guard end > offset else { break }
      if let refusal = try earlyRefusal() { return refusal }
      let header = Frame.header(kind: .data, bodyCount: end - offset)
      try header.withUnsafeBytes { head in
        data[offset..<end].withUnsafeBytes { body in
          Result { () throws(BrokerClientError) in try sendParts([head, body]) }
        }
      }.get()
      offset = end
    } while offset < data.endIndex
    return nil
  }

  private func streamDescriptor(_ descriptor: Int32) throws(BrokerClientError)
    -> BrokerClientError?
  {
    let chunk = FrameLimits.maxDataBody
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: Frame.headerSize + chunk, alignment: 16)
    defer { buffer.deallocate() }
    let body = UnsafeMutableRawBufferPointer(rebasing: buffer[Frame.headerSize...])
    let input = FileDescriptor(rawValue: descriptor)
    var finished = false
    while !finished {
      var filled = 0
      while filled < chunk {
        let count: Int
        do throws(Errno) {
          count = try input.readWaiting(
            into: UnsafeMutableRawBufferPointer(rebasing: body[filled...]))
        } catch {
          throw closing(.io, "reading the input failed: \(error); nothing was written")
        }
        if count == 0 {
          finished = true
          break
        }
        filled += count
      }
      if filled == 0 { break }
      if let refusal = try earlyRefusal() { return refusal }
      let header = Frame.header(kind: .data, bodyCount: filled)
      buffer.copyBytes(from: header)
      try sendParts([UnsafeRawBufferPointer(rebasing: buffer[..<(Frame.headerSize + filled)])])
    }
    return nil
  }

  /// Receives DATA frames up to END, handing each body to `consume`.
  private func receiveRepresentation(_ consume: ([UInt8]) throws(BrokerClientError) -> Void)
    throws(BrokerClientError)
  {
    while true {
      let frame = try receiveFrame(within: timeout, waitingFor: "data")
      switch frame.kind {
      case .data:
        do {
          try consume(frame.body)
        } catch {
          close()
          throw error
        }
      case .end:
        return
      case .error:
        let error = try brokerError(from: frame)
        close()
        throw error
      default:
        throw protocolViolation("\(frame.kind) frame in the middle of data")
      }
    }
  }

  func expectResponse<T: Decodable>(_ type: T.Type) throws(BrokerClientError) -> T {
    try decode(type, from: try responseFrame())
  }

  /// The next frame, a RESPONSE; an ERROR is thrown.
  private func responseFrame() throws(BrokerClientError) -> Frame {
    let frame = try receiveFrame(within: timeout, waitingFor: "answer")
    switch frame.kind {
    case .response: return frame
    case .error: throw try brokerError(from: frame)
    default: throw protocolViolation("\(frame.kind) frame instead of an answer")
    }
  }

  /// A message of a short paste read from `frame` without `Codable` (see ``CompactJSON``).
  private func compact<T>(_ frame: Frame, _ make: (CompactJSON) throws(CompactDecodingError) -> T)
    throws(BrokerClientError) -> T
  {
    do throws(CompactDecodingError) {
      return try make(try CompactJSON.object(in: frame))
    } catch {
      throw protocolViolation("cannot read the broker's \(frame.kind) frame: \(error)")
    }
  }

  /// The next frame after the answer to hello, waiting at most `limit` (forever when `nil`)
  /// for the broker to send something.
  private func receiveFrame(within limit: Duration?, waitingFor what: String)
    throws(BrokerClientError) -> Frame
  {
    try completeHello()
    return try nextFrame(within: limit, waitingFor: what)
  }

  /// The next frame on the connection.
  private func nextFrame(within limit: Duration?, waitingFor what: String)
    throws(BrokerClientError) -> Frame
  {
    while true {
      do {
        if let frame = try decoder.nextFrame() { return frame }
      } catch {
        throw protocolViolation("the broker sent a bad frame: \(error)")
      }
      guard let socket else { throw closedError() }
      let count: Int
      do {
        count = try socket.receive(into: &decoder, deadline: limit.map { .now + $0 })
      } catch .timedOut {
        throw closing(.timeout, "no \(what) from the broker for \(Self.seconds(limit ?? .zero)) s")
      } catch {
        throw closing(.connectionLost, "receiving from the broker failed: \(error.description)")
      }
      if count == 0 {
        throw closing(
          .connectionLost,
          "the broker closed the connection while this client waited for its \(what)")
      }
    }
  }

  private func decode<T: Decodable>(_ type: T.Type, from frame: Frame) throws(BrokerClientError)
    -> T
  {
    do {
      return try frame.decodeJSON(type)
    } catch {
      throw protocolViolation("cannot read the broker's \(frame.kind) frame: \(error)")
    }
  }

  private func brokerError(from frame: Frame) throws(BrokerClientError) -> BrokerClientError {
    let body = try compact(frame, ErrorBody.init(compact:))
    return BrokerClientError(code: body.code, message: body.message)
  }

  private func protocolViolation(_ what: String) -> BrokerClientError {
    closing(.connectionLost, "protocol error: \(what)")
  }

  /// Closes the connection, which a failure left out of step, and returns the failure.
  private func closing(_ code: BrokerErrorCode, _ message: String) -> BrokerClientError {
    close()
    return BrokerClientError(code: code, message: message)
  }

  private func closedError() -> BrokerClientError {
    BrokerClientError(code: .connectionLost, message: "the connection to the broker is closed")
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(BrokerClientError) {
    let failure: Errno? = bytes.withUnsafeBytes { raw in
      do throws(Errno) {
        try FileDescriptor(rawValue: descriptor).writeAll(from: raw, waitingForRoom: true)
        return nil
      } catch {
        return error
      }
    }
    if let failure {
      throw BrokerClientError(code: .io, message: "writing the output failed: \(failure)")
    }
  }

  /// Copies the broker's file `file` to `descriptor`.
  ///
  /// - Returns: `false`, having written nothing, when the file cannot be opened or is not the
  ///   one named (the item was replaced, or the broker's files are out of reach).
  private func copyInPlace(_ file: FileReference, to descriptor: Int32) throws(BrokerClientError)
    -> Bool
  {
    let source = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard source >= 0 else { return false }
    defer { Glibc.close(source) }
    var info = stat()
    guard fstat(source, &info) == 0, UInt64(info.st_dev) == file.device,
      UInt64(info.st_ino) == file.inode,
      Int64(info.st_size) == file.size, info.st_mode & S_IFMT == S_IFREG
    else { return false }
    do throws(FileCopy.Failure) {
      try FileCopy.copy(from: source, count: Int(file.size), to: descriptor)
      return true
    } catch {
      close()
      switch error {
      case .source(let error):
        let reason = error.map { "\($0)" } ?? "it ended early"
        throw BrokerClientError(
          code: .io, message: "reading the broker's copy \(file.path) failed: \(reason)")
      case .destination(let error):
        throw BrokerClientError(code: .io, message: "writing the output failed: \(error)")
      }
    }
  }

  private static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = attoseconds / 100_000_000_000_000_000
    return tenths == 0 ? "\(seconds)" : "\(seconds).\(tenths)"
  }
}
