import CoreTransferable
import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#endif

/// A 200 MB movie transferred through `FileRepresentation` in several ways, while the peak
/// memory of the process is watched with getrusage(2).
///
/// The work runs in an exit test — a child process of its own — so that no other test's
/// allocations land in the measured window.
@Suite("Large files")
struct LargeFileTests {
  /// The size of the movie: 200 MiB, written as a repeating 1 MiB pattern.
  static let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
  static let chunkCount = 200

  @Test func twoHundredMegabyteFileStreamsWithoutGrowingPeakMemory() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      try await LargeFileTests.measure()
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    var values: [String: Int] = [:]
    for field in output.split(whereSeparator: \.isWhitespace) {
      let parts = field.split(separator: "=")
      if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
    }
    let baseline = try #require(values["baselineKB"], "no measurement in: \(output)")
    let afterStreaming = try #require(values["afterStreamingKB"])
    let afterLoading = try #require(values["afterLoadingKB"])
    print(
      "200 MB transfer: peak RSS \(baseline) KB → \(afterStreaming) KB",
      "(+\(afterStreaming - baseline) KB; resident at start \(values["residentAtBaselineKB"] ?? -1) KB,",
      "ballast \(values["ballastKB"] ?? -1) KB);",
      "reading it into Data: +\(afterLoading - afterStreaming) KB")

    // Under a sanitizer the peak is the sanitizer's as much as ours (SanitizedRun).
    guard SanitizedRun.measuresMemory else { return }
    #expect(
      afterStreaming - baseline < 16 * 1024,
      "streaming grew the peak by \(afterStreaming - baseline) KB")
    // The control: reading the movie into memory, as `exported(as:)` must, does show up, so
    // the measurement above can fail.
    #expect(
      afterLoading - afterStreaming > 150 * 1024,
      "loading grew the peak by only \(afterLoading - afterStreaming) KB")
  }

  /// Runs in the child process: prints `baselineKB=…`, `afterStreamingKB=…`,
  /// `afterLoadingKB=…`; exits non-zero (by throwing) when a copy is wrong.
  static func measure() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = scratch.url.appendingPathComponent("big.mp4")
    guard FileManager.default.createFile(atPath: original.path, contents: nil) else {
      throw LargeFileError("cannot create \(original.path)")
    }
    let handle = try FileHandle(forWritingTo: original)
    for _ in 0..<chunkCount { try handle.write(contentsOf: chunk) }
    try handle.close()
    let video = Video(url: original)

    // Start the measured window with the resident size at the peak, so that any growth
    // raises the peak: reset the peak where Linux allows it, then fill what gap remains (the
    // test runner's start-up peak, kept by exited threads) with touched ballast.
    resetPeakResidentSize()
    let gap = max(0, peakResidentKilobytes() - residentKilobytes())
    let ballast = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(1, gap) * 1024, alignment: 4096)
    ballast.initializeMemory(as: UInt8.self, repeating: 1)
    defer { ballast.deallocate() }
    let baseline = peakResidentKilobytes()
    let residentAtBaseline = residentKilobytes()

    // Sender to receiver, through the Video importer, which copies into its library.
    let received = try await video.transferred(as: Video.self)
    try verify(received.url)
    try FileManager.default.removeItem(at: received.url.deletingLastPathComponent())

    // A file handed to init(importing:contentType:).
    let imported = try await Video(importing: original, contentType: .mpeg4Movie)
    try verify(imported.url)
    try FileManager.default.removeItem(at: imported.url.deletingLastPathComponent())

    // Exported to a directory, and as a temporary file.
    let exported = try await video.export(to: scratch.url, contentType: .mpeg4Movie)
    try verify(exported)
    try FileManager.default.removeItem(at: exported)
    try await video.withExportedFile(contentType: .movie) { try verify($0) }

    let afterStreaming = peakResidentKilobytes()

    // The control: exported(as:) returns Data, so it reads the whole file.
    let loaded = try await video.exported(as: .mpeg4Movie)
    guard loaded.count == chunk.count * chunkCount else {
      throw LargeFileError("loaded \(loaded.count) bytes")
    }
    let afterLoading = peakResidentKilobytes()

    print(
      "baselineKB=\(baseline) residentAtBaselineKB=\(residentAtBaseline) ballastKB=\(gap)",
      "afterStreamingKB=\(afterStreaming) afterLoadingKB=\(afterLoading)")
  }

  /// Checks a copy's size and its first and last megabyte.
  static func verify(_ file: URL) throws {
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
    guard size == chunk.count * chunkCount else {
      throw LargeFileError("\(file.path) has \(size ?? -1) bytes")
    }
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    for offset in [0, UInt64(chunk.count * (chunkCount - 1))] {
      try handle.seek(toOffset: offset)
      guard try handle.read(upToCount: chunk.count) == chunk else {
        throw LargeFileError("\(file.path) differs at \(offset)")
      }
    }
  }

  /// Resets the peak resident size that getrusage(2) reports to the current one, by writing
  /// `5` to `/proc/self/clear_refs` (Linux 4.0 and later); without it, the window starts at the
  /// runner's peak and the test is only less sensitive.
  static func resetPeakResidentSize() {
    let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = write(fd, "5", 1)
    close(fd)
  }

  /// The process' resident set size now, from `/proc/self/statm`, for the report only.
  static func residentKilobytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return -1
    }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
  }

  /// The process' peak resident set size so far, from getrusage(2).
  static func peakResidentKilobytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
  }
}

struct LargeFileError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
