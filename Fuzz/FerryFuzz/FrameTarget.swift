@testable import FerryProtocol

/// `FrameDecoder` over a byte stream fed whole and fed in pieces: both give the same frames
/// and the same error, each frame re-encodes to the bytes it came from, and the decoder holds
/// no more than the bytes not yet handed out.
///
/// The first input byte seeds the piece sizes; the rest is the stream.
let frameTarget = FuzzTarget(name: "frame") { bytes in
  var input = FuzzInput(bytes)
  var seed = UInt32(input.byte()) | 1
  let stream = Array(bytes.dropFirst())

  var whole = FrameDecoder()
  whole.feed(stream)
  let (wholeFrames, wholeError) = drain(&whole)

  var pieces = FrameDecoder()
  var pieceFrames: [Frame] = []
  var pieceError: FrameError?
  var fed = 0
  while fed < stream.count, pieceError == nil {
    seed ^= seed << 13
    seed ^= seed >> 17
    seed ^= seed << 5
    let count = min(Int(seed % 64) + 1, stream.count - fed)
    pieces.feed(stream[fed..<fed + count])
    fed += count
    let (frames, error) = drain(&pieces)
    pieceFrames += frames
    pieceError = error
    if seed & 0x100 != 0 { pieces.releaseStorageIfEmpty() }
  }
  require(pieceFrames == wholeFrames, "frames fed in pieces differ from frames fed whole")
  require(
    pieceError == wholeError,
    "error fed in pieces \(String(describing: pieceError)) differs from \(String(describing: wholeError))"
  )

  let consumed = wholeFrames.reduce(0) { $0 + Frame.headerSize + $1.body.count }
  require(
    wholeFrames.flatMap { $0.encoded() } == Array(stream.prefix(consumed)),
    "a frame re-encodes to other bytes")
  for frame in wholeFrames {
    require(
      FrameDecoder.check(length: frame.body.count + 1, kindByte: frame.kind.rawValue) == nil,
      "a decoded frame breaks the limits")
  }
  if wholeError == nil {
    // A header read is held as the decoder's state, not as bytes.
    var held = stream.count - consumed
    if case .body = whole.state { held -= Frame.headerSize }
    require(
      whole.bufferedByteCount == held,
      "the decoder holds \(whole.bufferedByteCount) bytes, not \(held)")
    require(whole.isAtFrameBoundary == (consumed == stream.count), "isAtFrameBoundary is wrong")
  } else {
    require(whole.bufferedByteCount == 0, "a failed decoder still holds bytes")
    require(!whole.isAtFrameBoundary, "a failed decoder claims a frame boundary")
  }
}

/// The frames a decoder completed, and the error that stopped it, if any.
private func drain(_ decoder: inout FrameDecoder) -> ([Frame], FrameError?) {
  var frames: [Frame] = []
  do {
    while let frame = try decoder.nextFrame() { frames.append(frame) }
    return (frames, nil)
  } catch {
    // A failed decoder keeps failing with the same error.
    let again = Result { () throws(FrameError) in try decoder.nextFrame() }
    require(again == .failure(error), "a failed decoder did not fail again with \(error)")
    return (frames, error)
  }
}
