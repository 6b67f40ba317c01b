import FerryProtocol
import NIOCore

/// A connection's frames as its request handler sees them: the inbound frames
/// ``BrokerSocketFrameDecoder`` makes, and the channel's outbound writer for answers.
struct ConnectionFrames: RequestFrameStream {
  /// The frames the client sends.
  var inbound: NIOAsyncChannelInboundStream<Frame>.AsyncIterator
  /// Where answers go, with NIO's backpressure.
  let sink: NIOAsyncChannelOutboundWriter<ByteBuffer>

  /// The next frame, `nil` at a clean end of the stream; a frame the decoder refused is a
  /// closing ``ProtocolFailure``.
  mutating func nextFrame() async throws -> Frame? {
    do {
      return try await inbound.next()
    } catch let error as FrameError {
      throw ProtocolFailure.fatal(error.code, error.description)
    }
  }
}

extension NIOAsyncChannelOutboundWriter: FrameSink where OutboundOut == ByteBuffer {}
