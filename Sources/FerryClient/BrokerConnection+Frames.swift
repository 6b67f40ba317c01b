import FerryProtocol
import JSONText

extension BrokerConnection {
  /// Sends one frame, made by `make`.
  ///
  /// - Throws: ``BrokerClientError``: `internal` when the frame cannot be made; the broker's
  ///   ERROR when it closed the connection after sending one; `timeout`, `connectionLost`.
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

  /// Sends `parts`, one after the other, as one run of bytes.
  func sendParts(_ parts: [UnsafeRawBufferPointer]) throws(BrokerClientError) {
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

  /// The next frame, a RESPONSE, decoded as `type`; an ERROR is thrown.
  func expectResponse<T: Decodable>(_ type: T.Type) throws(BrokerClientError) -> T {
    try decode(type, from: try responseFrame())
  }

  /// The next frame, a RESPONSE; an ERROR is thrown.
  func responseFrame() throws(BrokerClientError) -> Frame {
    let frame = try receiveFrame(within: timeout, waitingFor: "answer")
    switch frame.kind {
    case .response: return frame
    case .error: throw try brokerError(from: frame)
    default: throw protocolViolation("\(frame.kind) frame instead of an answer")
    }
  }

  /// A message of a short paste read from `frame` without `Codable` (see ``CompactJSON``).
  func compact<T>(_ frame: Frame, _ make: (CompactJSON) throws(CompactDecodingError) -> T)
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
  func receiveFrame(within limit: Duration?, waitingFor what: String)
    throws(BrokerClientError) -> Frame
  {
    try completeHello()
    return try nextFrame(within: limit, waitingFor: what)
  }

  /// The next frame on the connection.
  func nextFrame(within limit: Duration?, waitingFor what: String)
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

  /// The JSON body of `frame` decoded as `type`.
  func decode<T: Decodable>(_ type: T.Type, from frame: Frame) throws(BrokerClientError) -> T {
    do {
      return try frame.decodeJSON(type)
    } catch {
      throw protocolViolation("cannot read the broker's \(frame.kind) frame: \(error)")
    }
  }

  /// The error an ERROR frame carries.
  func brokerError(from frame: Frame) throws(BrokerClientError) -> BrokerClientError {
    let body = try compact(frame, ErrorBody.init(compact:))
    return BrokerClientError(code: body.code, message: body.message)
  }

  /// The failure for a broker that broke the protocol; the connection is closed.
  func protocolViolation(_ what: String) -> BrokerClientError {
    closing(.connectionLost, "protocol error: \(what)")
  }

  /// Closes the connection, which a failure left out of step, and returns the failure.
  func closing(_ code: BrokerErrorCode, _ message: String) -> BrokerClientError {
    close()
    return BrokerClientError(code: code, message: message)
  }

  private func closedError() -> BrokerClientError {
    BrokerClientError(code: .connectionLost, message: "the connection to the broker is closed")
  }

  private static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = attoseconds / 100_000_000_000_000_000
    return tenths == 0 ? "\(seconds)" : "\(seconds).\(tenths)"
  }
}
