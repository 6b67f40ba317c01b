import FerryProtocol
import Testing

/// The frame decoder as a state machine: bytes in, frames or an error out, no sockets.
@Suite struct FrameDecoderTests {
  /// A stream of every kind of frame, a large DATA body among them.
  static let frames: [Frame] = [
    Frame(kind: .request, body: Array(#"{"op":"hello","version":1}"#.utf8)),
    Frame(kind: .response, body: Array(#"{"version":1}"#.utf8)),
    Frame(kind: .data, body: TestBytes.make(70_000, seed: 1)),
    Frame(kind: .data, body: []),
    Frame(kind: .end),
    Frame(kind: .event, body: Array(#"{"changeCount":3}"#.utf8)),
    Frame(kind: .error, body: Array(#"{"code":"empty","message":"…"}"#.utf8)),
  ]
  static let stream = frames.flatMap { $0.encoded() }

  /// Feeds `bytes` in pieces of `sizes` (cycled) and collects what comes out.
  static func decode(_ bytes: [UInt8], pieces sizes: [Int]) throws -> [Frame] {
    var decoder = FrameDecoder()
    var frames: [Frame] = []
    var offset = 0
    var index = 0
    while offset < bytes.count {
      let size = min(sizes[index % sizes.count], bytes.count - offset)
      decoder.feed(bytes[offset..<offset + size])
      offset += size
      index += 1
      while let frame = try decoder.nextFrame() { frames.append(frame) }
    }
    #expect(decoder.isAtFrameBoundary)
    return frames
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 13, 64, 1000, 4096, 65_536, 1 << 20])
  func framesSplitIntoEqualPiecesComeOutWhole(pieceSize: Int) throws {
    #expect(try Self.decode(Self.stream, pieces: [pieceSize]) == Self.frames)
  }

  @Test(arguments: [UInt64(1), 2, 3, 42, 1234, 99_999])
  func framesSplitAtRandomBoundariesComeOutWhole(seed: UInt64) throws {
    var random = TestBytes(seed: seed)
    let sizes = random.next(64).map { Int($0) % 23 + 1 } + [9000, 1, 1, 4]
    #expect(try Self.decode(Self.stream, pieces: sizes) == Self.frames)
  }

  @Test func everyFrameOfAStreamFedAtOnceComesOut() throws {
    var decoder = FrameDecoder()
    decoder.feed(Self.stream)
    var frames: [Frame] = []
    while let frame = try decoder.nextFrame() { frames.append(frame) }
    #expect(frames == Self.frames)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func aPartialFrameWaitsForItsRest() throws {
    let bytes = Self.frames[2].encoded()
    var decoder = FrameDecoder()
    decoder.feed(bytes.dropLast())
    #expect(try decoder.nextFrame() == nil)
    #expect(!decoder.isAtFrameBoundary)
    decoder.feed(bytes.suffix(1))
    #expect(try decoder.nextFrame() == Self.frames[2])
    #expect(decoder.isAtFrameBoundary)
  }

  @Test func readingStraightIntoTheDecoderKeepsWhatWasWritten() throws {
    let bytes = Self.stream
    var decoder = FrameDecoder()
    var offset = 0
    var frames: [Frame] = []
    while offset < bytes.count {
      let count = decoder.read(atMost: 777) { free in
        let n = min(free.count, bytes.count - offset)
        free.copyBytes(from: bytes[offset..<offset + n])
        return n
      }
      offset += count
      while let frame = try decoder.nextFrame() { frames.append(frame) }
    }
    #expect(frames == Self.frames)
  }

  @Test func theSuggestedReadSizeStartsSmallAndGrowsOnlyWhileReadsFillIt() throws {
    var decoder = FrameDecoder()
    let first = decoder.suggestedReadSize
    #expect(first <= 64 << 10, "a short answer should not cost a large buffer")
    _ = decoder.read(atMost: first) { _ in 0 }
    #expect(decoder.suggestedReadSize == first, "a read that comes back short leaves it alone")

    // A stream of two large data frames, read as a socket reader reads it: every read asks
    // for the suggested size and is filled. The frames come out whole across every growth.
    let frames = [
      Frame(kind: .data, body: [UInt8](TestBytes.make(FrameLimits.maxDataBody, seed: 3))),
      Frame(kind: .data, body: [UInt8](TestBytes.make(300 << 10, seed: 4))),
    ]
    let stream = frames.flatMap { $0.encoded() }
    var offset = 0
    var sizes: [Int] = []
    var decoded: [Frame] = []
    while offset < stream.count {
      sizes.append(decoder.suggestedReadSize)
      offset += decoder.read(atMost: decoder.suggestedReadSize) { free in
        let count = min(free.count, stream.count - offset)
        free.copyBytes(from: stream[offset..<offset + count])
        return count
      }
      while let frame = try decoder.nextFrame() { decoded.append(frame) }
    }
    #expect(decoded == frames)
    #expect(sizes[1] == 2 * sizes[0], "a filled read doubles the next")
    #expect(sizes.max()! >= 256 << 10)
    #expect(sizes.suffix(3).allSatisfy { $0 == sizes.max()! }, "the growth stops at a limit")
  }

  @Test func headerIsTheBigEndianLengthOfKindAndBody() {
    #expect(Frame.header(kind: .data, bodyCount: 0x0102_0304 - 1) == [1, 2, 3, 4, 3])
    #expect(Frame(kind: .end).encoded() == [0, 0, 0, 1, 4])
    #expect(Frame(kind: .request, body: [0x7B, 0x7D]).encoded() == [0, 0, 0, 3, 1, 0x7B, 0x7D])
  }

  @Test func theLargestDataFrameIsAccepted() throws {
    var decoder = FrameDecoder()
    let frame = Frame(kind: .data, body: [UInt8](repeating: 7, count: FrameLimits.maxDataBody))
    decoder.feed(frame.encoded())
    #expect(try decoder.nextFrame() == frame)
  }

  @Test func anOversizedLengthIsRefusedBeforeItsBodyArrives() {
    var decoder = FrameDecoder()
    let length = UInt32(FrameLimits.maxFrameLength + 1)
    decoder.feed([
      UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
      UInt8(length & 0xFF), 3,
    ])
    #expect(
      throws: FrameError.tooLarge(
        kind: nil, bodyCount: FrameLimits.maxFrameLength, limit: FrameLimits.maxFrameLength - 1)
    ) {
      try decoder.nextFrame()
    }
    #expect(FrameError.tooLarge(kind: nil, bodyCount: 0, limit: 0).code == .frameTooLarge)
  }

  @Test func aDataBodyPastOneMebibyteIsRefused() {
    var decoder = FrameDecoder()
    decoder.feed(Frame.header(kind: .data, bodyCount: FrameLimits.maxDataBody + 1))
    #expect(
      throws: FrameError.tooLarge(
        kind: .data, bodyCount: FrameLimits.maxDataBody + 1, limit: FrameLimits.maxDataBody)
    ) {
      try decoder.nextFrame()
    }
  }

  @Test(arguments: [Frame.Kind.request, .response, .event, .error])
  func aJSONBodyPast64KiBIsRefused(kind: Frame.Kind) {
    var decoder = FrameDecoder()
    decoder.feed(Frame.header(kind: kind, bodyCount: FrameLimits.maxJSONBody + 1))
    #expect(
      throws: FrameError.tooLarge(
        kind: kind, bodyCount: FrameLimits.maxJSONBody + 1, limit: FrameLimits.maxJSONBody)
    ) {
      try decoder.nextFrame()
    }
  }

  @Test func anOversizedLengthIsRefusedBeforeTheKindArrives() throws {
    var decoder = FrameDecoder()
    decoder.feed([0xFF, 0xFF, 0xFF])
    #expect(try decoder.nextFrame() == nil)
    decoder.feed([0xFF])
    #expect(throws: FrameError.self) { try decoder.nextFrame() }
  }

  @Test func aZeroLengthFrameIsRefused() {
    var decoder = FrameDecoder()
    decoder.feed([0, 0, 0, 0])
    #expect(throws: FrameError.zeroLength) { try decoder.nextFrame() }
    #expect(FrameError.zeroLength.code == .badRequest)
  }

  @Test(arguments: [UInt8(0), 7, 8, 0x7F, 0xFF])
  func anUnknownKindIsRefused(kind: UInt8) {
    var decoder = FrameDecoder()
    decoder.feed([0, 0, 0, 3, kind, 1, 2])
    #expect(throws: FrameError.unknownKind(kind)) { try decoder.nextFrame() }
  }

  @Test func anEndFrameWithABodyIsRefused() {
    var decoder = FrameDecoder()
    decoder.feed([0, 0, 0, 2, 4, 9])
    #expect(throws: FrameError.endWithBody(1)) { try decoder.nextFrame() }
  }

  @Test func aFailureIsFinal() throws {
    var decoder = FrameDecoder()
    decoder.feed([0, 0, 0, 0, 1])
    #expect(throws: FrameError.zeroLength) { try decoder.nextFrame() }
    decoder.feed(Frame(kind: .end).encoded())
    #expect(throws: FrameError.zeroLength) { try decoder.nextFrame() }
  }

  @Test func framesBeforeABadOneAreDelivered() throws {
    var decoder = FrameDecoder()
    decoder.feed(Frame(kind: .end).encoded() + [0, 0, 0, 1, 99])
    #expect(try decoder.nextFrame() == Frame(kind: .end))
    #expect(throws: FrameError.unknownKind(99)) { try decoder.nextFrame() }
  }
}
