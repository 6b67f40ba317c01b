import FerryTestSupport
import Foundation
import Testing

@testable import Pasteboard

/// Issue 17, found by LeakSanitizer: a ``TextTranscoder`` dropped after `feed` threw kept its
/// output buffer (twice the chunk) for good; now the buffer goes with the transcoder.
@Suite struct TranscoderReleaseTests {
  /// A MiB of text and then a byte that is not UTF-8: the transcoder has its 2 MiB buffer
  /// when it finds the fault.
  static let invalid = [UInt8](repeating: 0x61, count: 1 << 20) + [0xFF]

  /// Whether a transcoder fed `invalid` failed as it should.
  static func failOnce() -> Bool {
    var transcoder = TextTranscoder(from: .utf8, to: .utf16LittleEndian(byteOrderMark: false))
    do {
      try invalid.withUnsafeBytes { try transcoder.feed($0) { _ in } }
      return false
    } catch {
      return error is TextEncodingError
    }
  }

  /// Measured in a process of its own (an exit test): the heap figures of the test process
  /// move with every other test running beside this one.
  @Test func aTranscoderDroppedAfterAnErrorKeepsNoBuffer() async {
    // Under AddressSanitizer, whose allocator glibc's figures do not see, LeakSanitizer
    // reports the kept buffers when the process ends.
    guard SanitizedRun.measuresMemory else { return }
    await #expect(processExitsWith: .success) {
      guard Self.failOnce() else { exit(2) }
      let before = HeapFigures.allocatedBytes()
      for _ in 0..<20 { guard Self.failOnce() else { exit(2) } }
      let grown = HeapFigures.allocatedBytes() - before
      exit(grown < 4 << 20 ? 0 : 1)  // 20 failed conversions of 1 MiB keep less than 4 MiB
    }
  }
}
