import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

#if canImport(Glibc)
  import Glibc
#endif

/// A 200 MB representation saved, opened and streamed back byte for byte, without ever
/// being held in memory.
///
/// The round trip runs in a child process (an exit test), so that its peak resident size is
/// its own and not that of whatever other tests ran before or beside it.
@Suite struct DocumentLargeFileTests {
  static let size = 200 << 20
  /// The most the peak resident size may grow across save, open and stream-back: a few
  /// 1 MiB buffers and the runtime's bookkeeping, far below the 200 MB a whole read costs.
  static let growthLimit = 32 << 20

  @Test func a200MBRepresentationRoundTripsByteForByteWithoutBeingLoaded() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      exit(await DocumentLargeFileTests.roundTrip())
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    let growth = output.split(separator: "\n")
      .first { $0.hasPrefix("peak-growth-bytes=") }
      .flatMap { Int($0.dropFirst("peak-growth-bytes=".count)) }
    let measured = try #require(growth, "the child printed no measurement: \(output)")
    print("200 MB document round trip: peak resident size grew by \(measured >> 10) KiB")
    // Under a sanitizer the peak is the sanitizer's as much as ours (SanitizedRun).
    if SanitizedRun.measuresMemory { #expect(measured < Self.growthLimit, "\(output)") }
  }

  /// The round trip, in the child: 0 on success, else a code naming the failed step (and a
  /// line on standard output saying why).
  static func roundTrip() async -> Int32 {
    func fail(_ code: Int32, _ message: String) -> Int32 {
      print("failed: \(message)")
      return code
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-doc-large-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let movie = directory.appendingPathComponent("movie.mp4")
      let package = directory.appendingPathComponent("large.pasteboard")
      let streamed = directory.appendingPathComponent("streamed.mp4")
      try DocumentTesting.writeLargeFile(at: movie, size: size)
      let item = PasteboardItem(representations: [
        .file(movie, type: .mpeg4Movie),
        .data(Data("a large movie".utf8), type: .utf8PlainText),
      ])
      let before = DocumentTesting.peakResidentBytes()

      try await PasteboardDocument(items: [item]).save(to: package)
      let opened = try PasteboardDocument.open(at: package)
      let payload = try await opened.items[0].payload(for: .mpeg4Movie)
      let descriptor = open(streamed.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return fail(2, "cannot create \(streamed.path)") }
      do {
        defer { close(descriptor) }
        try payload.write(to: descriptor)
      }
      let text = try await opened.items[0].data(for: .utf8PlainText)
      let equal = try DocumentTesting.filesAreEqual(movie, streamed)

      let growth = DocumentTesting.peakResidentBytes() - before
      print("peak-growth-bytes=\(growth)")
      guard case .file(let inPackage) = payload,
        inPackage.deletingLastPathComponent().lastPathComponent == "large.pasteboard"
      else { return fail(3, "the movie is not a file in the package: \(payload)") }
      guard payload.byteCount == size else {
        return fail(4, "the copy is \(payload.byteCount) bytes")
      }
      guard equal else { return fail(5, "the streamed copy differs from the original") }
      guard text == Data("a large movie".utf8) else { return fail(6, "the text differs") }
      return 0
    } catch {
      return fail(1, "\(error)")
    }
  }
}
