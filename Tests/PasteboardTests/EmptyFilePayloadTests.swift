import FerryTestSupport
import Foundation
import Testing

@testable import Pasteboard

/// Issue 17, found by LeakSanitizer in the daemon's tests: swift-foundation's
/// `Data(contentsOf:)` leaks a 4 KiB buffer for each empty file it reads, so every read of an
/// empty file payload cost 4 KiB for good. ``PasteboardPayload/data()`` now reads an empty
/// file as no bytes without it.
@Suite struct EmptyFilePayloadTests {
  /// Measured in a process of its own (an exit test): the heap figures of the test process
  /// move with every other test running beside this one.
  @Test func anEmptyFilePayloadIsReadWithoutKeepingABuffer() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-empty-\(UUID().uuidString)")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(try PasteboardPayload.file(file).data().isEmpty)
    // Under AddressSanitizer, whose allocator glibc's figures do not see, LeakSanitizer
    // reports what is kept when the process ends.
    guard SanitizedRun.measuresMemory else { return }
    await #expect(processExitsWith: .success) {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "ferry-empty-\(getpid())")
      guard (try? Data().write(to: file)) != nil else { exit(3) }
      let payload = PasteboardPayload.file(file)
      var allEmpty = (try? payload.data())?.isEmpty == true
      let before = HeapFigures.allocatedBytes()
      for _ in 0..<1000 { allEmpty = allEmpty && (try? payload.data())?.isEmpty == true }
      let grown = HeapFigures.allocatedBytes() - before
      try? FileManager.default.removeItem(at: file)
      guard allEmpty else { exit(2) }
      exit(grown < 1 << 20 ? 0 : 1)  // 1000 reads of an empty file keep less than 1 MiB
    }
  }

  /// A /proc file has no size for `stat` either, and its bytes all the same.
  @Test func aFileWhoseSizeStatDoesNotKnowIsReadToItsEnd() throws {
    let status = try PasteboardPayload.file(URL(fileURLWithPath: "/proc/self/status")).data()
    #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
  }

  @Test func aMissingFileStillFails() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-missing-\(UUID().uuidString)")
    #expect(throws: (any Error).self) { try PasteboardPayload.file(missing).data() }
  }
}
