import FerryProtocol
import FerrySystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BrokerConnection {
  /// Sends each source's bytes as DATA frames and an END frame after each.
  ///
  /// The broker refuses a bad request (an unknown type) as soon as it reads it, then skips
  /// the data. When its ERROR frame is already here, the rest of the data is not sent, only
  /// the END frames the broker counts, so the connection stays in step.
  ///
  /// - Returns: The broker's early refusal, if it sent one.
  /// - Throws: ``BrokerClientError``: `io` when a source descriptor fails (the connection is
  ///   closed), and the connection failures.
  func sendRepresentations(_ sources: [BrokerClient.Source]) throws(BrokerClientError)
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
  ///
  /// - Throws: What `consume` throws, or the ERROR that came in place of END (each closes the
  ///   connection: the bytes so far are incomplete); the connection failures.
  func receiveRepresentation(_ consume: ([UInt8]) throws(BrokerClientError) -> Void)
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
}
