import Dispatch
import FerryProtocol
import Synchronization
import Testing

/// Issue 17, found by ThreadSanitizer: decoding a frame with an empty body (every END frame)
/// wrote a count of 0 into the runtime's shared empty-array object, so two connections'
/// decoders on two threads raced there. Under `Scripts/test --sanitize thread` this test
/// reported that race before the fix (and so failed the run); in every build it checks the
/// frames.
@Suite struct FrameDecoderThreadTests {
  @Test func emptyBodiesDecodeOnManyThreadsAtOnce() throws {
    let stream = (0..<500).flatMap { _ in
      Frame(kind: .end).encoded() + Frame(kind: .data, body: []).encoded()
    }
    let decoded = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      var decoder = FrameDecoder()
      decoder.feed(stream)
      var count = 0
      while let frame = try? decoder.nextFrame(), frame.body.isEmpty { count += 1 }
      decoded.add(count, ordering: .relaxed)
    }
    #expect(decoded.load(ordering: .relaxed) == 4 * 1000)
  }
}
