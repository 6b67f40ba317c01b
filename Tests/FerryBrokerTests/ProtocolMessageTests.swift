import FerryBroker
import FerryClient
import FerryCommandLine
import FerryProtocol
import Foundation
import Testing

/// The JSON of the protocol's headers, as docs/PROTOCOL.md shows it.
@Suite struct ProtocolMessageTests {
  static func json(_ value: some Encodable) throws -> String {
    String(decoding: try Frame.json(.request, value).body, as: UTF8.self)
  }

  @Test func helloIsTheOperationAndTheVersion() throws {
    #expect(try Self.json(HelloRequest()) == #"{"op":"hello","version":1}"#)
  }

  @Test func writeListsTypesInOrderWithOptions() throws {
    let request = WriteRequest(
      pasteboard: "general",
      representations: [.init(type: "com.example.profile"), .init(type: "public.utf8-plain-text")],
      options: [.concealed], expires: 1_767_225_600)
    #expect(
      try Self.json(request)
        == #"{"expires":1767225600,"op":"write","options":["concealed"],"pasteboard":"general","representations":[{"type":"com.example.profile"},{"type":"public.utf8-plain-text"}]}"#
    )
  }

  @Test func requestsDecodeFromTheDocumentedJSON() throws {
    let frame = Frame(
      kind: .request, body: Array(#"{"op":"read","types":["text/plain","public.png"]}"#.utf8))
    let request = try frame.decodeJSON(ReadRequest.self)
    #expect(request == ReadRequest(pasteboard: nil, types: ["text/plain", "public.png"]))
    #expect(try frame.decodeJSON(RequestHead.self).op == "read")
  }

  @Test func anUnknownOptionDoesNotDecode() {
    let frame = Frame(
      kind: .request, body: Array(#"{"op":"write","representations":[],"options":["loud"]}"#.utf8))
    #expect(throws: DecodingError.self) { try frame.decodeJSON(WriteRequest.self) }
  }

  @Test func statusSendsDisplayAsNullWhenHeadless() throws {
    let status = StatusResponse(
      version: "1", pid: 7, uptime: 1.5, display: nil, x11Bridged: false, clipboardManager: false,
      socket: "/s", pasteboards: [])
    #expect(try Self.json(status).contains(#""display":null"#))
    let decoded = try Frame.json(.response, status).decodeJSON(StatusResponse.self)
    #expect(decoded == status)
  }

  @Test func anErrorCodeThisVersionDoesNotKnowSurvives() throws {
    let frame = Frame(kind: .error, body: Array(#"{"code":"quotaExceeded","message":"m"}"#.utf8))
    let body = try frame.decodeJSON(ErrorBody.self)
    #expect(body.code == BrokerErrorCode(rawValue: "quotaExceeded"))
    #expect(ExitStatus(BrokerClientError(code: body.code, message: body.message)) == .io)
  }

  @Test(arguments: [
    (BrokerErrorCode.empty, Int32(1)), (.notAvailable, 1), (.notFound, 1), (.historyOff, 1),
    (.badRequest, 2),
    (.unknownType, 2), (.frameTooLarge, 2), (.noBroker, 3), (.timeout, 4), (.invalidDeclaration, 5),
    (.unsupportedVersion, 6), (.forbidden, 6), (.unsafeSocket, 6), (.busy, 6), (.providerFailed, 6),
    (.internal, 6),
    (.connectionLost, 6), (.io, 6),
  ])
  func everyCodeMapsToItsExitStatus(code: BrokerErrorCode, status: Int32) {
    #expect(ExitStatus(BrokerClientError(code: code, message: "")).rawValue == status)
  }
}
