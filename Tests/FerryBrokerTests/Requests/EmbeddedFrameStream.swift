import FerryProtocol
import FerrySystem
import FerryTestSupport
import NIOCore

@testable import FerryBroker

/// A request's frames in memory, for driving a ``BrokerRequestHandler`` without a socket:
/// the frames a client would send after its REQUEST, and a recorder of what the handler sends.
///
/// ```swift
/// var frames = EmbeddedFrameStream([.data("hello"), Frame(kind: .end)])
/// let outcome = try await handler.write(request, frames: &frames)
/// #expect(frames.sink.frames.isEmpty)
/// ```
struct EmbeddedFrameStream: RequestFrameStream {
  /// What the handler sent.
  let sink: RecordingFrameSink
  private var inbound: AsyncStream<Frame>.Iterator

  /// A stream whose client sends `frames`, then closes.
  init(_ frames: [Frame], sink: RecordingFrameSink = RecordingFrameSink()) {
    let (stream, continuation) = AsyncStream.makeStream(of: Frame.self)
    for frame in frames { continuation.yield(frame) }
    continuation.finish()
    self.init(inbound: stream, sink: sink)
  }

  /// A stream whose client sends what `inbound` yields, and closes when it finishes.
  init(inbound: AsyncStream<Frame>, sink: RecordingFrameSink = RecordingFrameSink()) {
    self.inbound = inbound.makeAsyncIterator()
    self.sink = sink
  }

  mutating func nextFrame() async throws -> Frame? { await inbound.next() }
}

/// A ``FrameSink`` that keeps what is written: the writes as they came, and the frames they
/// hold, decoded as a client would.
final class RecordingFrameSink: FrameSink {
  private let state = TrackedMutex<(decoder: FrameDecoder, frames: [Frame], writes: Int)>(
    (FrameDecoder(), [], 0))

  init() {}

  func write(_ frames: ByteBuffer) async throws {
    try state.withLock { state in
      frames.withUnsafeReadableBytes { state.decoder.feed($0) }
      state.writes += 1
      while let frame = try state.decoder.nextFrame() { state.frames.append(frame) }
    }
  }

  /// The frames sent so far, in order.
  var frames: [Frame] { state.withLock { $0.frames } }

  /// How many writes the frames came in.
  var writes: Int { state.withLock { $0.writes } }

  /// Waits until at least `count` frames were sent, at most `limit`.
  func waitForFrames(_ count: Int, within limit: Duration = .seconds(30)) async -> Bool {
    await Deadline.wait(for: limit) { self.frames.count >= count }
  }
}

extension Frame {
  /// A DATA frame holding `text`'s UTF-8.
  static func data(_ text: String) -> Frame { Frame(kind: .data, body: Array(text.utf8)) }

  /// An END frame.
  static var end: Frame { Frame(kind: .end) }

  /// The text of a DATA frame.
  var text: String { String(decoding: body, as: UTF8.self) }

  /// The ERROR body of an ERROR frame, `nil` for any other frame.
  var error: ErrorBody? { kind == .error ? try? decodeJSON(ErrorBody.self) : nil }
}
