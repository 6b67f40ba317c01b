import FerryTestSupport
import Foundation
import Testing

@testable import Pasteboard

/// Issue 17, found by LeakSanitizer in the daemon's tests: swift-foundation's
/// `Data(contentsOf:)` leaks a 4 KiB buffer for each empty file it reads, so every read of an
/// empty file payload cost 4 KiB for good. ``PasteboardPayload/data()`` now reads an empty
/// file as no bytes without it.
@Suite struct EmptyFilePayloadTests {
  @Test func anEmptyFilePayloadIsReadWithoutKeepingABuffer() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-empty-\(UUID().uuidString)")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let payload = PasteboardPayload.file(file)
    #expect(try payload.data().isEmpty)
    let before = HeapFigures.allocatedBytes()
    var bytes = 0
    for _ in 0..<1000 { bytes += try payload.data().count }
    let grown = HeapFigures.allocatedBytes() - before
    #expect(bytes == 0)
    guard SanitizedRun.measuresMemory else { return }
    #expect(grown < 1 << 20, "1000 reads of an empty file kept \(grown >> 10) KiB")
  }

  /// A /proc file has no size for `stat` either, and its bytes all the same.
  @Test func aFileWhoseSizeStatDoesNotKnowIsReadToItsEnd() throws {
    let status = try PasteboardPayload.file(URL(fileURLWithPath: "/proc/self/status")).data()
    #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
  }

  @Test func aMissingFileStillFails() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-missing-\(UUID().uuidString)")
    #expect(throws: (any Error).self) { try PasteboardPayload.file(missing).data() }
  }
}
