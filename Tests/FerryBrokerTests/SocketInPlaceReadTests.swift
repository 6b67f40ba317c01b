import FerryBroker
import FerryClient
import FerryProtocol
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A client that may copy the broker's spooled file itself (`inPlace`) gets the file named,
/// not its bytes; anything else still streams, and the blocking client asks again when the
/// file named is gone or another one.
@Suite struct SocketInPlaceReadTests {
  static let size = 3 << 20 + 12_345

  /// A fixture spooling anything past 64 KiB, holding one spooled representation.
  static func withSpooledItem(_ body: @escaping @Sendable (SocketFixture, [UInt8]) throws -> Void)
    async throws
  {
    try await SocketFixture.with({ $0.spoolThreshold = 64 << 10 }) { fixture in
      let bytes = TestBytes.make(size, seed: 7)
      try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data(bytes), type: "public.data")])
        try body(fixture, bytes)
      }
    }
  }

  @Test func aSpooledRepresentationIsNamedAsAFileOnlyWhenTheClientAsks() async throws {
    try await Self.withSpooledItem { fixture, bytes in
      let raw = try fixture.rawConnection()
      try raw.hello()
      raw.send(try Frame.json(.request, ReadRequest(types: ["public.data"], inPlace: true)))
      let answer = try JSONDecoder().decode(
        ReadResponse.self, from: Data(try #require(try raw.receive()).body))
      let file = try #require(answer.file, "no file in \(answer)")
      #expect(file.size == Int64(bytes.count))
      #expect(file.path.hasPrefix(fixture.spoolParent + "/"))
      #expect(try raw.receive()?.kind == .end, "END, and no DATA, follows a file answer")
      #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == Data(bytes))

      raw.send(try Frame.json(.request, ReadRequest(types: ["public.data"])))
      let streamed = try JSONDecoder().decode(
        ReadResponse.self, from: Data(try #require(try raw.receive()).body))
      #expect(streamed.file == nil)
      var received: [UInt8] = []
      while let frame = try raw.receive(), frame.kind == .data { received += frame.body }
      #expect(received == bytes)
    }
  }

  @Test func aRepresentationInMemoryStreamsEvenWhenTheClientCouldCopyAFile() async throws {
    try await SocketFixture.with { fixture in
      try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("short".utf8), type: "public.utf8-plain-text")])
        let raw = try fixture.rawConnection()
        try raw.hello()
        raw.send(
          try Frame.json(.request, ReadRequest(types: ["public.utf8-plain-text"], inPlace: true)))
        let answer = try JSONDecoder().decode(
          ReadResponse.self, from: Data(try #require(try raw.receive()).body))
        #expect(answer.file == nil)
        let data = try #require(try raw.receive())
        #expect(data.kind == .data && data.body == Array("short".utf8))
        #expect(try raw.receive()?.kind == .end)
      }
    }
  }

  enum Destination: String, CaseIterable, Sendable {
    case pipe, file, appendingFile
  }

  @Test(arguments: Destination.allCases)
  func theClientCopiesTheFileByteForByte(into destination: Destination) async throws {
    try await Self.withSpooledItem { fixture, bytes in
      let client = try fixture.client()
      let received: [UInt8]
      switch destination {
      case .pipe:
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = PipeDrain(ends[0])
        defer { close(ends[0]) }
        let served = try client.read(types: ["public.data"], into: ends[1])
        close(ends[1])
        #expect(served == "public.data")
        received = reader.wait()
      case .file, .appendingFile:
        let path = fixture.root + "/out-\(destination.rawValue)"
        let flags =
          O_WRONLY | O_CREAT | O_CLOEXEC | (destination == .appendingFile ? O_APPEND : O_TRUNC)
        let output = open(path, flags, 0o600)
        #expect(output >= 0)
        _ = try client.read(types: ["public.data"], into: output)
        close(output)
        received = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      }
      #expect(received.count == bytes.count)
      #expect(received == bytes)
    }
  }

  @Test func theClientAsksForTheBytesWhenTheFileIsGone() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let missing = FileReference(path: root + "/gone", device: 1, inode: 2, size: 9)
    let requests = try await ScriptedBroker.run(
      in: root, answering: missing, thenStreaming: "streamed!")
    #expect(requests.map(\.inPlace) == [true, nil], "the second request must not allow a file")
  }

  @Test func theClientRefusesAFileThatIsNotTheOneNamed() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let path = root + "/other"
    try Data("not these bytes".utf8).write(to: URL(fileURLWithPath: path))
    var info = stat()
    #expect(stat(path, &info) == 0)
    let wrongInode = FileReference(
      path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino) + 1,
      size: Int64(info.st_size))
    let requests = try await ScriptedBroker.run(
      in: root, answering: wrongInode, thenStreaming: "streamed!")
    #expect(requests.count == 2)
  }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeDrain: @unchecked Sendable {
  private var bytes: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)

  init(_ descriptor: Int32) {
    Thread.detachNewThread { [self] in
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        bytes += buffer[..<count]
      }
      done.signal()
    }
  }

  func wait() -> [UInt8] {
    done.wait()
    return bytes
  }
}

/// A broker of one connection that names `file` for the first read and streams `text` for
/// the next: the client's answer to a file it cannot use.
enum ScriptedBroker {
  /// Runs the script against a blocking client reading into a pipe; checks that the client
  /// wrote `text`, and returns the read requests it sent.
  static func run(in root: String, answering file: FileReference, thenStreaming text: String)
    async throws
    -> [ReadRequest]
  {
    #expect(chmod(root, 0o700) == 0)
    let location = SocketPath(directory: root, fileName: "scripted.sock")
    let listener = try listen(at: location.path)
    defer { close(listener) }
    let requests = LockedRequests()
    let server = Thread {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      defer { close(connection) }
      var decoder = FrameDecoder()
      func next() -> Frame? {
        while true {
          if let frame = try? decoder.nextFrame() { return frame }
          let count = decoder.read(atMost: 1 << 16) {
            recv(connection, $0.baseAddress, $0.count, 0)
          }
          if count <= 0 { return nil }
        }
      }
      func send(_ frame: Frame) {
        _ = frame.encoded().withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, 0) }
      }
      guard next() != nil else { return }
      send(try! Frame.json(.response, HelloResponse(version: WireProtocol.version, pid: 1)))
      while let frame = next() {
        guard let request = try? JSONDecoder().decode(ReadRequest.self, from: Data(frame.body))
        else { return }
        requests.append(request)
        if requests.count == 1 {
          send(
            try! Frame.json(
              .response, ReadResponse(type: "public.data", requested: "public.data", file: file)))
        } else {
          send(
            try! Frame.json(.response, ReadResponse(type: "public.data", requested: "public.data")))
          send(Frame(kind: .data, body: Array(text.utf8)))
        }
        send(Frame(kind: .end))
      }
    }
    server.start()
    let output = try await DetachedThread.run { () -> [UInt8] in
      let client = try BrokerClient.connect(to: location, timeout: .seconds(60))
      var ends: [Int32] = [0, 0]
      _ = pipe(&ends)
      let drain = PipeDrain(ends[0])
      defer { close(ends[0]) }
      _ = try client.read(types: ["public.data"], into: ends[1])
      close(ends[1])
      client.close()
      return drain.wait()
    }
    #expect(String(decoding: output, as: UTF8.self) == text)
    return requests.all
  }

  private static func listen(at path: String) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    let bound = withUnixAddress(path) { bind(descriptor, $0, $1) }
    guard bound == 0, Glibc.listen(descriptor, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
    return descriptor
  }
}

/// Requests a scripted broker received, read after its thread is done.
final class LockedRequests: @unchecked Sendable {
  private let lock = NSLock()
  private var requests: [ReadRequest] = []

  func append(_ request: ReadRequest) { lock.withLock { requests.append(request) } }
  var count: Int { lock.withLock { requests.count } }
  var all: [ReadRequest] { lock.withLock { requests } }
}
