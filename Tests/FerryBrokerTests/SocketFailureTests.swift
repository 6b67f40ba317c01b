import FerryBroker
import FerryClient
import FerryCommandLine
import FerryProtocol
import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#endif

/// Bad input costs one connection an ERROR frame and its close; the broker goes on.
@Suite struct SocketFailureTests {
  /// Byte streams that break the protocol after hello, and the code each earns.
  static let malformed: [(name: String, bytes: [UInt8], code: BrokerErrorCode)] = [
    ("garbage kind", [0, 0, 0, 3, 0xEE, 1, 2], .badRequest),
    ("zero length", [0, 0, 0, 0], .badRequest),
    ("END with a body", [0, 0, 0, 2, 4, 0], .badRequest),
    ("DATA instead of a request", Frame(kind: .data, body: [1, 2, 3]).encoded(), .badRequest),
    (
      "request that is not JSON", Frame(kind: .request, body: Array("hello?".utf8)).encoded(),
      .badRequest
    ),
    (
      "unknown operation", Frame(kind: .request, body: Array(#"{"op":"paste"}"#.utf8)).encoded(),
      .badRequest
    ),
    (
      "write without representations field",
      Frame(kind: .request, body: Array(#"{"op":"write"}"#.utf8)).encoded(), .badRequest
    ),
    ("oversized length", [0x7F, 0xFF, 0xFF, 0xFF, 3], .frameTooLarge),
    (
      "oversized JSON", Frame.header(kind: .request, bodyCount: FrameLimits.maxJSONBody + 1),
      .frameTooLarge
    ),
    (
      "oversized DATA", Frame.header(kind: .data, bodyCount: FrameLimits.maxDataBody + 1),
      .frameTooLarge
    ),
  ]

  @Test(arguments: malformed.indices)
  func aMalformedFrameGetsAnErrorFrameAndACloseAndTheBrokerGoesOn(case index: Int) async throws {
    let (name, bytes, code) = Self.malformed[index]
    try await SocketFixture.with { fixture in
      let frames = try await DetachedThread.run {
        let raw = try fixture.rawConnection()
        try raw.hello()
        raw.send(bytes)
        return try raw.receiveUntilClosed()
      }
      #expect(frames.count == 1, "\(name): one ERROR frame, then the close")
      let error = try #require(frames.first)
      #expect(error.kind == .error, "\(name)")
      let body = try error.decodeJSON(ErrorBody.self)
      #expect(body.code == code, "\(name): \(body.message)")
      #expect(!body.message.isEmpty)

      // The broker still serves a second connection.
      let state = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("fine".utf8), type: "public.utf8-plain-text")])
        return try client.types()
      }
      #expect(state.changeCount == 1, "\(name)")
    }
  }

  @Test func anUnsupportedVersionIsRefusedAndClosed() async throws {
    try await SocketFixture.with { fixture in
      let frames = try await DetachedThread.run {
        let raw = try fixture.rawConnection()
        raw.send(try Frame.json(.request, HelloRequest(version: 99)))
        return try raw.receiveUntilClosed()
      }
      #expect(frames.count == 1)
      let body = try #require(try frames.first?.decodeJSON(ErrorBody.self))
      #expect(body.code == .unsupportedVersion)
      #expect(body.message.contains("99"))
    }
  }

  @Test func aRequestBeforeHelloIsRefusedAndClosed() async throws {
    try await SocketFixture.with { fixture in
      let frames = try await DetachedThread.run {
        let raw = try fixture.rawConnection()
        raw.send(try Frame.json(.request, TypesRequest()))
        return try raw.receiveUntilClosed()
      }
      #expect(try frames.map { try $0.decodeJSON(ErrorBody.self).code } == [.badRequest])
    }
  }

  /// How a client can give up in the middle of a write.
  enum Abort: String, CaseIterable {
    /// Closes after the request, before any data.
    case afterTheRequest
    /// Closes in the middle of a DATA frame.
    case inTheMiddleOfAFrame
    /// Closes after the first representation's END, before the second's data.
    case betweenRepresentations
    /// Closes after every DATA frame but before the last END.
    case beforeTheLastEnd
  }

  @Test(arguments: Abort.allCases)
  func anAbortedWriteLeavesThePreviousItem(abort: Abort) async throws {
    try await SocketFixture.with({ $0.spoolThreshold = 64 << 10 }) { fixture in
      let before = try await DetachedThread.run {
        try fixture.client().write([.data(Data("previous".utf8), type: "public.utf8-plain-text")])
      }
      let answers = try await DetachedThread.run {
        let raw = try fixture.rawConnection()
        try raw.hello()
        raw.send(
          try Frame.json(
            .request,
            WriteRequest(representations: [
              .init(type: "public.data"), .init(type: "public.utf8-plain-text"),
            ])))
        let chunk = Frame(kind: .data, body: TestBytes.make(200_000, seed: 2)).encoded()
        switch abort {
        case .afterTheRequest:
          break
        case .inTheMiddleOfAFrame:
          raw.send(chunk)
          raw.send(Array(chunk.prefix(chunk.count / 2)))
        case .betweenRepresentations:
          raw.send(chunk)
          raw.send(Frame(kind: .end))
        case .beforeTheLastEnd:
          raw.send(chunk)
          raw.send(Frame(kind: .end))
          raw.send(Frame(kind: .data, body: Array("new".utf8)))
        }
        raw.closeSending()
        return try raw.receiveUntilClosed()
      }
      #expect(answers.isEmpty, "an abandoned write gets no answer")
      #expect(await fixture.waitUntilIdle())

      let (state, text) = try await DetachedThread.run {
        let client = try fixture.client()
        return (try client.types(), try client.read(types: ["public.utf8-plain-text"]).data)
      }
      #expect(state.changeCount == before)
      #expect(state.storedTypes == ["public.utf8-plain-text"])
      #expect(text == Data("previous".utf8))
      #expect(
        await Deadline.wait(for: .seconds(30)) { fixture.spooledFiles().isEmpty },
        "the partial spool file is removed")
    }
  }

  @Test func aClientWhoseSourceFailsAbandonsTheWriteAndThePreviousItemStays() async throws {
    try await SocketFixture.with { fixture in
      let (error, text) = try await DetachedThread.run { () -> (BrokerClientError?, Data) in
        let client = try fixture.client()
        try client.write([.data(Data("previous".utf8), type: "public.utf8-plain-text")])
        var failure: BrokerClientError?
        // A directory cannot be read: the write fails on this side.
        let descriptor = open(fixture.root, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        do {
          try client.write([
            .init(type: "public.utf8-plain-text", source: .fileDescriptor(descriptor))
          ])
        } catch { failure = error as? BrokerClientError }
        return (failure, try fixture.client().read(types: ["public.utf8-plain-text"]).data)
      }
      #expect(error?.code == .io)
      #expect(text == Data("previous".utf8))
    }
  }

  @Test func aPeerOfAnotherUserIsRefusedThroughSOPeerCred() async throws {
    // The kernel reports our own uid; a broker configured for another user must refuse it.
    try await SocketFixture.with({ $0.peerUID = getuid() &+ 1 }) { fixture in
      let error = try await DetachedThread.run { () -> BrokerClientError? in
        do {
          _ = try fixture.client()
          return nil
        } catch { return error as? BrokerClientError }
      }
      #expect(error?.code == .forbidden)
      #expect(
        error.map(ExitStatus.init) == .io,
        "another user's broker or socket is an I/O failure, not bad input")
      #expect(error?.message.contains("uid \(getuid())") == true, "\(String(describing: error))")
    }
  }

  @Test func aPipeliningClientLearnsWhyItWasRefused() async throws {
    try await SocketFixture.with({ $0.peerUID = getuid() &+ 1 }) { fixture in
      // The refusal comes with the first call's answer, or already with the hello when the
      // broker refused and closed before the hello was sent (a busy machine, 1 clean-clone run
      // in 14): either way the client says why, never "connection lost".
      let error = try await DetachedThread.run { () -> BrokerClientError? in
        do {
          let client = try BrokerClient.connect(
            to: fixture.location, timeout: .seconds(60), pipelining: true)
          _ = try client.read(types: ["public.utf8-plain-text"])
          return nil
        } catch { return error as? BrokerClientError }
      }
      #expect(error?.code == .forbidden)
      #expect(
        error.map(ExitStatus.init) == .io,
        "another user's broker or socket is an I/O failure, not bad input")
    }
  }

  @Test func admissionIsForTheBrokersOwnUserOnly() {
    let broker: UInt32 = 1000
    #expect(PeerCredentials(pid: 1, uid: 1000, gid: 1000).admission(byUserID: broker) == .admit)
    for uid: UInt32 in [0, 999, 1001, 65534] {
      guard
        case .refuse(let reason) = PeerCredentials(pid: 1, uid: uid, gid: 1000).admission(
          byUserID: broker)
      else {
        Issue.record("uid \(uid) was admitted")
        continue
      }
      #expect(reason.contains("uid \(uid)"))
    }
  }

  /// A client that ignored its timeout would wait forever here; the time limit makes that a
  /// failure rather than a hang.
  @Test(.timeLimit(.minutes(1))) func anIdleClientTimesOutWithExitStatus4() async throws {
    // A broker that accepts but never answers: a listening socket nobody serves.
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let location = SocketPath(directory: root, fileName: "mute.sock")
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    let bound = withUnixAddress(location.path) { bind(listener, $0, $1) }
    #expect(bound == 0)
    #expect(listen(listener, 4) == 0)
    let error = try await DetachedThread.run { () -> BrokerClientError? in
      do {
        _ = try BrokerClient.connect(to: location, timeout: .milliseconds(300))
        return nil
      } catch { return error as? BrokerClientError }
    }
    #expect(error?.code == .timeout)
    #expect(error.map(ExitStatus.init) == .timeout)
    #expect(error?.message == "no answer from the broker for 0.3 s", "\(String(describing: error))")
  }
}
