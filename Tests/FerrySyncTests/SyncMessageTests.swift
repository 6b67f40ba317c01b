import FerryProtocol
import FerrySync
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The link's messages and its handshake: every message survives its frame; what is not one
/// is a protocol violation naming what is wrong; bytes before the hello are counted.
@Suite struct SyncMessageTests {
  private let origin = ItemOrigin(node: "n", change: 2, clock: 5, via: "m")

  @Test func everyMessageSurvivesItsFrame() throws {
    let messages: [SyncMessage] = [
      .hello(
        SyncMessage.Hello(
          node: "n", host: "desk", software: "ferry 1", broker: "display-0", current: origin,
          lastSynced: nil)),
      .offer(
        SyncMessage.Offer(
          id: 3, pasteboard: "general", origin: origin,
          types: ["public.html", "public.utf8-plain-text"],
          sizes: [10, 4], expiresIn: 30, eager: true)),
      .pull(id: 3), .decline(id: 4, reason: "tooLarge"), .stream(id: 3), .abort(id: 5),
      .ack(id: 3, applied: true), .ack(id: 6, applied: false),
    ]
    for message in messages {
      #expect(try SyncMessage(frame: message.frame) == message)
    }
    guard case .offer(let offer) = try SyncMessage(frame: messages[1].frame) else {
      Issue.record("not an offer")
      return
    }
    #expect(offer.origin.via == "m", "the sender's node crosses in via")
  }

  @Test(arguments: [
    (#"{"op":"dance"}"#, "an unknown message"),
    (#"["op"]"#, "not a JSON object"),
    (#"{"op":"pull"}"#, "without an id"),
    (#"{"op":"abort","id":-1}"#, "without an id"),
    (
      #"{"op":"hello","magic":"other","version":1,"node":"n","host":"h","software":"s","broker":"b"}"#,
      "magic"
    ),
    (
      #"{"op":"offer","id":1,"pasteboard":"general","origin":{"node":"n","change":1,"clock":1},"types":["a","b"],"sizes":[1],"eager":true}"#,
      "do not match"
    ),
    (
      #"{"op":"offer","id":1,"pasteboard":"general","origin":{"node":"n","change":1,"clock":1},"types":["a","a"],"sizes":[1,1],"eager":true}"#,
      "do not match"
    ),
    (
      #"{"op":"offer","id":1,"pasteboard":"general","origin":{"node":"n","change":1,"clock":1},"types":["a"],"sizes":[-4],"eager":true}"#,
      "do not match"
    ),
    (
      #"{"op":"offer","id":1,"pasteboard":"general","origin":{"node":"n","change":1,"clock":1},"types":["a","b"],"sizes":[9223372036854775807,9223372036854775807],"eager":true}"#,
      "do not match"
    ),
    // Sizes whose sum wraps round to a small number (the check must not add with wrapping).
    (
      #"{"op":"offer","id":1,"pasteboard":"general","origin":{"node":"n","change":1,"clock":1},"types":["a","b","c"],"sizes":[9223372036854775807,9223372036854775807,2],"eager":false}"#,
      "do not match"
    ),
    (
      #"{"op":"offer","id":1,"pasteboard":"general","types":["a"],"sizes":[1],"eager":true}"#,
      "malformed"
    ),
  ])
  func whatIsNotAMessageIsNamed(json: String, named: String) {
    #expect {
      try SyncMessage(frame: Frame(kind: .event, body: Array(json.utf8)))
    } throws: { error in
      guard case .protocolViolation(let what) = error as? SyncLinkError else { return false }
      return what.contains(named)
    }
  }

  @Test func aDataFrameIsNoMessage() {
    #expect(throws: SyncLinkError.self) { try SyncMessage(frame: Frame(kind: .data, body: [1])) }
  }

  /// The hello read from what `bytes` a remote wrote and then closed.
  private func hello(after bytes: [UInt8]) throws(SyncLinkError) -> SyncMessage.Hello? {
    var ends: [CInt] = [0, 0]
    precondition(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &ends) == 0)
    let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, bytes.count) }
    precondition(written == bytes.count)
    close(ends[1])
    let channel = FramedChannel(
      input: FileDescriptor(rawValue: ends[0]), output: FileDescriptor(rawValue: ends[0]))
    defer { close(ends[0]) }
    return try channel.receiveHello()
  }

  private var helloFrame: [UInt8] {
    SyncMessage.hello(
      SyncMessage.Hello(
        node: "n", host: "desk", software: "ferry 1", broker: "headless", current: nil,
        lastSynced: nil)
    ).frame.encoded()
  }

  @Test func theHelloIsTheFirstFrame() throws {
    #expect(try hello(after: helloFrame)?.host == "desk")
    #expect(try hello(after: []) == nil, "an end of stream before any byte is no hello")
  }

  @Test func bytesALoginScriptPrintedBeforeTheHelloAreCounted() {
    #expect(throws: SyncLinkError.bytesBeforeHello(3)) {
      try hello(after: Array("hi\n".utf8) + helloFrame)
    }
    let motd = Array("Welcome to the machine.\nLast login: yesterday\n".utf8)
    #expect(throws: SyncLinkError.bytesBeforeHello(motd.count)) {
      try hello(after: motd + helloFrame)
    }
    #expect(throws: SyncLinkError.bytesBeforeHello(6)) { try hello(after: Array("hello\n".utf8)) }
    #expect(
      SyncLinkError.bytesBeforeHello(37).description.hasPrefix(
        "the remote printed 37 bytes before ferry started"))
  }

  @Test func aRemoteThatNeverSpeaksIsAFailureAtTheDeadline() throws {
    var ends: [CInt] = [0, 0]
    precondition(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    _ = write(ends[1], "Password: ", 10)
    let channel = FramedChannel(
      input: FileDescriptor(rawValue: ends[0]), output: FileDescriptor(rawValue: ends[0]))
    #expect(
      throws: SyncLinkError.closed(
        "the remote printed 10 bytes and then nothing (a login waiting for input?)")
    ) { try channel.receiveHello(until: .now + .milliseconds(200)) }
  }

  @Test func anErrorFrameFirstIsTheRemotesReason() throws {
    let frame = try Frame.json(
      .error, ErrorBody(code: .notAvailable, message: "no broker answers there"))
    #expect(throws: SyncLinkError.remote("no broker answers there")) {
      try hello(after: frame.encoded())
    }
  }

  @Test func aPeerThatBreaksTheProtocolCostsOnlyItsLink() async throws {
    let a = try SyncMachine("a")
    let b = try SyncMachine("b")
    var ends: [CInt] = [0, 0]
    precondition(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &ends) == 0)
    let hostile = ends[1]
    let channel = FramedChannel(
      input: FileDescriptor(rawValue: ends[0]), output: FileDescriptor(rawValue: ends[0]))
    // The peer says hello, then sends bytes outside any item.
    let bytes =
      SyncMessage.hello(
        SyncMessage.Hello(
          node: "peer", host: "evil", software: "?", broker: "?", current: nil, lastSynced: nil)
      ).frame.encoded() + Frame(kind: .data, body: [1, 2, 3]).encoded()
    _ = bytes.withUnsafeBytes { write(hostile, $0.baseAddress, bytes.count) }
    #expect(throws: SyncLinkError.protocolViolation("DATA outside an item")) {
      try a.engine.run(channel, record: SyncLinkRecord(host: "evil"), initiator: true)
    }
    close(hostile)
    close(ends[0])
    // The engine goes on with its other links.
    let link = try SyncLink(a, b)
    #expect(await link.waitUntil("connected"))
    a.broker.copy(text: "still here")
    #expect(await Deadline.wait(for: .seconds(10)) { b.broker.text == "still here" })
    link.cut()
  }
}
