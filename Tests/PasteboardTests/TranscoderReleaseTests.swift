import FerryTestSupport
import Testing

@testable import Pasteboard

/// Issue 17, found by LeakSanitizer: a ``TextTranscoder`` dropped after `feed` threw kept its
/// output buffer (twice the chunk) for good; now the buffer goes with the transcoder.
@Suite struct TranscoderReleaseTests {
  /// A MiB of text and then a byte that is not UTF-8: the transcoder has its 2 MiB buffer
  /// when it finds the fault.
  static let invalid = [UInt8](repeating: 0x61, count: 1 << 20) + [0xFF]

  static func failOnce() {
    var transcoder = TextTranscoder(from: .utf8, to: .utf16LittleEndian(byteOrderMark: false))
    #expect(throws: TextEncodingError.self) {
      try invalid.withUnsafeBytes { try transcoder.feed($0) { _ in } }
    }
  }

  @Test func aTranscoderDroppedAfterAnErrorKeepsNoBuffer() {
    Self.failOnce()
    let before = HeapFigures.allocatedBytes()
    for _ in 0..<20 { Self.failOnce() }
    let grown = HeapFigures.allocatedBytes() - before
    // Under AddressSanitizer, whose allocator glibc's figures do not see, LeakSanitizer
    // reports the kept buffers when the test process ends.
    guard SanitizedRun.measuresMemory else { return }
    #expect(grown < 4 << 20, "20 failed conversions of 1 MiB kept \(grown >> 20) MiB")
  }
}
