import FerryProtocol
import NIOCore

/// The NIO face of ``FrameDecoder``: turns the bytes of a connection into ``Frame``s.
///
/// Every byte read goes into the decoder at once (the cumulation buffer never keeps any), and
/// every frame it completes goes down the pipeline. A bad frame is thrown as ``FrameError``,
/// which `ByteToMessageHandler` passes on as an error; the connection answers it with an
/// ERROR frame and closes.
struct BrokerSocketFrameDecoder: ByteToMessageDecoder {
  typealias InboundOut = Frame

  private var decoder = FrameDecoder()

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws
    -> DecodingState
  {
    if buffer.readableBytes > 0 {
      buffer.withUnsafeReadableBytes { decoder.feed($0) }
      buffer.moveReaderIndex(to: buffer.writerIndex)
    }
    while let frame = try decoder.nextFrame() {
      context.fireChannelRead(Self.wrapInboundOut(frame))
    }
    // An idle connection keeps no buffer: 500 of them held 2 MB of empty decoder storage.
    decoder.releaseStorageIfEmpty()
    return .needMoreData
  }

  mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool)
    throws -> DecodingState
  {
    // A partial frame at the end is a write the client gave up; the connection sees the end
    // of the stream and drops what it had.
    try decode(context: context, buffer: &buffer)
  }
}

extension ByteBuffer {
  /// A buffer holding `frame` as it goes on the wire.
  init(frame: Frame) {
    self = ByteBufferAllocator().buffer(capacity: Frame.headerSize + frame.body.count)
    writeBytes(Frame.header(kind: frame.kind, bodyCount: frame.body.count))
    writeBytes(frame.body)
  }

  /// A buffer holding a DATA frame whose body is `bytes`.
  init(dataFrameWith bytes: UnsafeRawBufferPointer) {
    self = ByteBufferAllocator().buffer(capacity: Frame.headerSize + bytes.count)
    writeBytes(Frame.header(kind: .data, bodyCount: bytes.count))
    writeBytes(bytes)
  }
}
