import FerryProtocol
import JSONText

/// A message body as the client reads answers (`CompactJSON`) and as the broker reads
/// requests (`Codable`): a decoded message re-encodes to a body that decodes to the same
/// message, and where both readers take an answer they agree.
let messagesTarget = FuzzTarget(name: "messages") { bytes in
  let frame = Frame(kind: .response, body: bytes)
  guard let json = try? CompactJSON.object(in: frame) else {
    checkRequests(frame)
    return
  }
  if let hello = try? HelloResponse(compact: json) {
    roundTrip(hello) { try HelloResponse(compact: $0) }
  }
  if let read = try? ReadResponse(compact: json) {
    roundTrip(read) { try ReadResponse(compact: $0) }
  }
  if let error = try? ErrorBody(compact: json) {
    roundTrip(error) { try ErrorBody(compact: $0) }
  }
  checkRequests(frame)
}

/// Re-encodes `value` with `Codable`, as the broker writes it, and reads it back both ways.
private func roundTrip<T: Codable & Equatable>(_ value: T, compact: (CompactJSON) throws -> T) {
  guard let encoded = try? Frame.json(.response, value) else {
    require(false, "\(T.self) read from a body cannot be encoded")
    return
  }
  let again = try? compact(CompactJSON.object(in: encoded))
  require(
    again == value,
    "\(T.self) does not survive Codable → CompactJSON: \(value) became \(String(describing: again))"
  )
  let decoded = try? encoded.decodeJSON(T.self)
  require(decoded == value, "\(T.self) does not survive Codable → Codable")
}

/// The broker's side: the head, then the request the head names.
private func checkRequests(_ response: Frame) {
  let frame = Frame(kind: .request, body: response.body)
  guard let head = try? frame.decodeJSON(RequestHead.self),
    let op = BrokerOperation(rawValue: head.op)
  else {
    return
  }
  switch op {
  case .hello: requestRoundTrip(frame, HelloRequest.self)
  case .write: requestRoundTrip(frame, WriteRequest.self)
  case .read: requestRoundTrip(frame, ReadRequest.self)
  case .types: requestRoundTrip(frame, TypesRequest.self)
  case .watch: requestRoundTrip(frame, WatchRequest.self)
  case .clear: requestRoundTrip(frame, ClearRequest.self)
  case .register: requestRoundTrip(frame, RegisterRequest.self)
  case .status: requestRoundTrip(frame, StatusRequest.self)
  case .historyList: requestRoundTrip(frame, HistoryListRequest.self)
  case .historySearch: requestRoundTrip(frame, HistorySearchRequest.self)
  case .historyShow: requestRoundTrip(frame, HistoryShowRequest.self)
  case .historyRestore: requestRoundTrip(frame, HistoryRestoreRequest.self)
  case .historyDelete: requestRoundTrip(frame, HistoryDeleteRequest.self)
  case .historyClear: requestRoundTrip(frame, HistoryClearRequest.self)
  case .historyPin, .historyUnpin: requestRoundTrip(frame, HistoryPinRequest.self)
  case .syncReport: requestRoundTrip(frame, SyncReportRequest.self)
  }
}

private func requestRoundTrip<T: BrokerRequest & Equatable>(_ frame: Frame, _ type: T.Type) {
  guard let request = try? frame.decodeJSON(type) else { return }
  guard let encoded = try? Frame.json(.request, request) else {
    require(false, "\(T.self) read from a body cannot be encoded")
    return
  }
  require(
    (try? encoded.decodeJSON(type)) == request, "\(T.self) does not survive Codable → Codable")
  if let hello = request as? HelloRequest {
    require(
      hello.compactJSON.serialized == encoded.body,
      "HelloRequest's compact JSON differs from Codable's")
  }
  if let read = request as? ReadRequest {
    require(
      read.compactJSON.serialized == encoded.body,
      "ReadRequest's compact JSON differs from Codable's")
  }
}
