import FerryProtocol
import NIOCore

/// Where a request handler sends frames: a connection's outbound side, or a test's recorder.
///
/// Each write holds one or more whole frames as they go on the wire (a read's answer, DATA
/// and END may go in one write); writes leave in the order they are made.
protocol FrameSink: Sendable {
  /// Sends `frames`: bytes holding one or more whole frames.
  func write(_ frames: ByteBuffer) async throws
}

/// The frames of a request that carries data or follows changes (`write`, `register`,
/// `watch`), as its handler sees them: what the client sends after the REQUEST, and where the
/// answer goes.
///
/// ``BrokerSocketConnection`` implements it over its channel (``ConnectionFrames``); tests
/// implement it in memory.
protocol RequestFrameStream {
  /// Where answers go.
  associatedtype Sink: FrameSink

  /// Where answers go.
  var sink: Sink { get }

  /// The next frame from the client, `nil` at a clean end of the stream.
  ///
  /// - Throws: A closing ``ProtocolFailure`` for a frame the decoder refused.
  mutating func nextFrame() async throws -> Frame?
}

extension FrameSink {
  /// Sends a JSON frame of `kind` holding `value`.
  func send(_ kind: Frame.Kind, _ value: some Encodable) async throws {
    try await write(ByteBuffer(frame: try Frame.json(kind, value)))
  }
}
