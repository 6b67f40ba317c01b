import Testing

@testable import X11Selections

/// The requestor's side of INCR as a value: append, finish on a zero-length chunk, then ignore.
@Suite struct IncrementalReceiveTests {
  private let utf8 = XAtom(rawValue: 301)
  private let png = XAtom(rawValue: 302)

  @Test(arguments: [[1], [4000, 4000, 1], [1_048_575, 1_048_575, 1_048_575, 3], [7, 0]])
  func appendsUntilAZeroLengthChunk(sizes: [Int]) {
    var receive = IncrementalReceive()
    let data = sizes.prefix { $0 > 0 }
    for size in data {
      #expect(receive.chunk(type: utf8, byteCount: size) == .append)
    }
    #expect(receive.chunk(type: utf8, byteCount: 0) == .finish)
    #expect(receive.state == .finished(chunks: data.count, bytes: data.reduce(0, +)))
    #expect(receive.receivedBytes == data.reduce(0, +))
  }

  @Test func theTypeComesFromTheFirstChunk() {
    var receive = IncrementalReceive()
    #expect(receive.type == nil)
    _ = receive.chunk(type: png, byteCount: 10)
    _ = receive.chunk(type: utf8, byteCount: 10)
    #expect(receive.type == png)
  }

  @Test func theTerminatorDoesNotSetTheType() {
    var receive = IncrementalReceive()
    #expect(receive.chunk(type: utf8, byteCount: 0) == .finish)
    #expect(receive.type == nil)
    #expect(receive.state == .finished(chunks: 0, bytes: 0))
  }

  @Test(arguments: [0, 1, 5000])
  func chunksAfterTheEndAreIgnored(size: Int) {
    var receive = IncrementalReceive()
    _ = receive.chunk(type: utf8, byteCount: 3)
    _ = receive.chunk(type: utf8, byteCount: 0)
    #expect(receive.chunk(type: png, byteCount: size) == .ignore)
    #expect(receive.state == .finished(chunks: 1, bytes: 3))
    #expect(receive.type == utf8)
  }
}
