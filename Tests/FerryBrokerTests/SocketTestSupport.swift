import FerryBroker
import FerryClient
import FerryProtocol
import FerrySystem
import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#endif

/// A broker socket server on a private socket in a fresh temporary directory, serving
/// pasteboards of its own (never the process's shared ones), for one test.
///
/// ```swift
/// try await SocketFixture.with { fixture in
///   try await DetachedThread.run { let client = try fixture.client(); … }
/// }
/// ```
final class SocketFixture: Sendable {
  /// The temporary directory; the socket is in `run/`, the spool in `spool/`.
  let root: String
  let location: SocketPath
  let spoolParent: String
  let converters: ConverterRegistry
  let server: BrokerSocketServer
  private let boards: BoardTable
  private let serving: Task<Void, any Error>

  private init(
    root: String, location: SocketPath, boards: BoardTable, server: BrokerSocketServer
  ) {
    self.root = root
    self.location = location
    self.spoolParent = root + "/spool"
    self.converters = boards.converters
    self.boards = boards
    self.server = server
    self.serving = Task { try await server.serve() }
  }

  /// Starts a server; `configure` may change its configuration first.
  static func start(
    _ configure: (inout BrokerSocketServer.Configuration) -> Void = { _ in }
  ) async throws -> SocketFixture {
    let root = try makeTemporaryDirectory()
    let location = SocketPath(directory: root + "/run", fileName: "test.sock")
    let boards = BoardTable(converters: ConverterRegistry())
    var configuration = BrokerSocketServer.Configuration(
      location: location, pasteboard: { boards.board($0) }, converters: boards.converters,
      spoolParent: root + "/spool")
    configure(&configuration)
    let server = try await BrokerSocketServer.bind(configuration)
    return SocketFixture(root: root, location: location, boards: boards, server: server)
  }

  /// Runs `body` with a fresh fixture and stops it afterwards, whatever happens.
  static func with<T>(
    _ configure: (inout BrokerSocketServer.Configuration) -> Void = { _ in },
    _ body: (SocketFixture) async throws -> T
  ) async throws -> T {
    let fixture = try await start(configure)
    do {
      let result = try await body(fixture)
      await fixture.stop()
      return result
    } catch {
      await fixture.stop()
      throw error
    }
  }

  /// The server's pasteboard named `name`.
  func pasteboard(_ name: Pasteboard.Name) -> Pasteboard { boards.board(name) }

  /// A connected client (blocking: use it inside `DetachedThread.run`).
  ///
  /// The timeout only guards against a hang: the whole suite runs at once on two cores, and
  /// a test that waits its turn must not fail for it.
  func client(timeout: Duration = .seconds(60)) throws(BrokerClientError) -> BrokerClient {
    try BrokerClient.connect(to: location, timeout: timeout, clientName: "tests")
  }

  /// A raw connection for speaking the protocol by hand.
  func rawConnection() throws -> RawConnection { try RawConnection(path: location.path) }

  /// The regular files in the spool (declaration copies left out).
  func spooledFiles() -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: spoolParent) else { return [] }
    var files: [String] = []
    while let name = enumerator.nextObject() as? String {
      var info = stat()
      if !name.contains("declarations"), lstat(spoolParent + "/" + name, &info) == 0,
        info.st_mode & S_IFMT == S_IFREG
      {
        files.append(name)
      }
    }
    return files
  }

  /// Waits until the server serves no connection, so that everything a closed client sent
  /// has been dealt with.
  func waitUntilIdle() async -> Bool {
    await Deadline.wait(for: .seconds(30)) { self.server.openConnectionCount == 0 }
  }

  /// Stops the server and removes the directory.
  func stop() async {
    serving.cancel()
    _ = try? await serving.value
    try? FileManager.default.removeItem(atPath: root)
  }
}

/// The fixture's pasteboards, each made on first use with the fixture's converters.
final class BoardTable: Sendable {
  let converters: ConverterRegistry
  private let boards = TrackedMutex<[Pasteboard.Name: Pasteboard]>([:])

  init(converters: ConverterRegistry) { self.converters = converters }

  func board(_ name: Pasteboard.Name) -> Pasteboard {
    boards.withLock { boards in
      if let board = boards[name] { return board }
      let board = Pasteboard(name: name, converters: converters)
      boards[name] = board
      return board
    }
  }
}

/// A fresh directory under `/tmp` with a short name (socket paths are limited to 107 bytes).
func makeTemporaryDirectory() throws -> String {
  var template = Array("/tmp/ferry-socket-test-XXXXXX".utf8CString)
  guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
  }
  return String(cString: made)
}

/// Calls `body` with the Unix socket address of `path` (`bind` or `connect` take it).
func withUnixAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

/// A connection that speaks frames by hand: for malformed and partial input.
final class RawConnection: @unchecked Sendable {
  let descriptor: Int32
  private var decoder = FrameDecoder()

  init(path: String) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    let result = withUnixAddress(path) { connect(descriptor, $0, $1) }
    guard result == 0 else {
      close(descriptor)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    // A guard against a broker that never answers, not a measure of speed: at the start of a
    // full run on two cores, in-process brokers of a dozen tests starting at once took over
    // 10 s to answer their first hello (the clean-clone run of 2026-11-24).
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(descriptor) }

  /// Sends raw bytes; `false` when the broker has closed the connection.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  /// Sends a frame.
  @discardableResult
  func send(_ frame: Frame) -> Bool { send(frame.encoded()) }

  /// Says hello and checks the answer.
  func hello() throws {
    send(try Frame.json(.request, HelloRequest(client: "raw")))
    let answer = try #require(try receive())
    #expect(answer.kind == .response)
  }

  /// The next frame, or `nil` when the broker closed the connection (or went silent for 60 s).
  func receive() throws -> Frame? {
    while true {
      if let frame = try decoder.nextFrame() { return frame }
      let count = decoder.read(atMost: 1 << 16) { buffer in
        recv(descriptor, buffer.baseAddress, buffer.count, 0)
      }
      if count <= 0 {
        if count < 0, errno == EINTR { continue }
        return nil
      }
    }
  }

  /// Every frame until the broker closes the connection.
  func receiveUntilClosed() throws -> [Frame] {
    var frames: [Frame] = []
    while let frame = try receive() { frames.append(frame) }
    return frames
  }

  /// Closes the sending side, as a client that gives up does.
  func closeSending() { shutdown(descriptor, Int32(SHUT_WR)) }
}

/// Bytes that look random and are the same every run (SplitMix64).
struct TestBytes {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// `count` bytes from a generator seeded with `seed`.
  static func make(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = TestBytes(seed: seed)
    return generator.next(count)
  }

  mutating func next(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { raw in
      var offset = 0
      while offset < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        withUnsafeBytes(of: z) { word in
          let n = min(8, count - offset)
          raw.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: n)
        }
        offset += 8
      }
    }
    return bytes
  }
}
