import FerryBroker
import FerryProtocol
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// 100 MiB written through the socket and read back, compared by streaming, without either
/// side holding it in memory.
///
/// Client and server run in a child process (an exit test), so that the resident size
/// measured is theirs alone, not that of tests run before or beside. Two measures:
/// `getrusage`'s peak (`ru_maxrss`) before and after, which cannot see below a peak the
/// process reached earlier (the test harness starting), and the kernel's high-water mark
/// (`VmHWM`), reset just before the transfer through `/proc/self/clear_refs`, against the
/// resident size then (`VmRSS`): the transfer's own peak.
@Suite struct SocketLargeTransferTests {
  static let size = 100 << 20
  /// The most the peak resident size may grow: the frames in flight on both sides (a few
  /// MiB each way) and the allocator's per-thread arenas; one whole copy would cost 100 MiB.
  static let growthLimit = 48 << 20

  @Test func hundredMebibytesGoInAndComeBackByteForByteInBoundedMemory() async throws {
    // The child exits 0 whenever it got to report; its verdict is in its output, so that the
    // measurements are read even when a check in it failed.
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      print("failed-step=\(await SocketLargeTransferTests.roundTrip())")
      exit(0)
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    func value(_ key: String) -> Int? {
      output.split(separator: "\n").first { $0.hasPrefix(key + "=") }
        .flatMap { Int($0.dropFirst(key.count + 1)) }
    }
    #expect(value("failed-step") == 0, "\(output)")
    let rusageGrowth = try #require(value("rusage-growth-bytes"), "no measurement: \(output)")
    let highWaterGrowth = try #require(
      value("high-water-growth-bytes"), "no measurement: \(output)")
    print(
      "100 MiB through the socket: write \(value("write-ms") ?? -1) ms, "
        + "read \(value("read-ms") ?? -1) ms; peak resident size grew by \(highWaterGrowth >> 10) KiB "
        + "(VmHWM over VmRSS before; \(value("high-water-after-write-bytes").map { $0 >> 10 } ?? -1) KiB "
        + "by the end of the write), ru_maxrss by \(rusageGrowth >> 10) KiB")
    // Under a sanitizer the peak is the sanitizer's as much as ours (SanitizedRun).
    if SanitizedRun.measuresMemory {
      #expect(highWaterGrowth < Self.growthLimit, "\(output)")
      #expect(rusageGrowth < Self.growthLimit, "\(output)")
    }
  }

  /// The round trip, in the child: 0 on success, else a number naming the failed step (and
  /// a line on standard output saying why).
  static func roundTrip() async -> Int32 {
    func fail(_ code: Int32, _ message: String) -> Int32 {
      print("failed: \(message)")
      return code
    }
    func milliseconds(_ duration: Duration) -> Int64 {
      duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
    do {
      return try await SocketFixture.with({ $0.spoolThreshold = 4 << 20 }) { fixture -> Int32 in
        let source = fixture.root + "/source"
        let copy = fixture.root + "/copy"
        try writeTestFile(at: source, size: size)
        let peakBefore = peakResidentBytes()
        guard resetHighWaterMark(), let residentBefore = procStatus("VmRSS") else {
          return fail(5, "cannot reset or read the resident size in /proc/self")
        }

        let clock = ContinuousClock()
        let (writeTime, readTime, served) = try await DetachedThread.run {
          let client = try fixture.client(timeout: .seconds(30))
          let input = open(source, O_RDONLY | O_CLOEXEC)
          defer { close(input) }
          let writeTime = try clock.measure {
            try client.write([
              .init(type: "public.data", source: .fileDescriptor(input)),
              .data(Data("a large file".utf8), type: "public.utf8-plain-text"),
            ])
          }
          print("high-water-after-write-bytes=\((procStatus("VmHWM") ?? 0) - residentBefore)")
          let output = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
          defer { close(output) }
          var served = ""
          let readTime = try clock.measure {
            served = try client.read(types: ["public.data"], into: output)
          }
          return (writeTime, readTime, served)
        }
        print("high-water-growth-bytes=\((procStatus("VmHWM") ?? Int.max) - residentBefore)")
        print("rusage-growth-bytes=\(peakResidentBytes() - peakBefore)")
        print("write-ms=\(milliseconds(writeTime))")
        print("read-ms=\(milliseconds(readTime))")
        guard served == "public.data" else { return fail(2, "served \(served)") }
        guard fixture.spooledFiles().count == 1 else {
          return fail(
            3, "the large representation is not one spool file: \(fixture.spooledFiles())")
        }
        guard try filesAreEqual(source, copy) else { return fail(4, "the copy differs") }
        return 0
      }
    } catch {
      return fail(1, "\(error)")
    }
  }

  /// The process's peak resident size so far, in bytes (`ru_maxrss` is in KiB on Linux).
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss * 1024
  }

  /// Resets the kernel's resident high-water mark (`VmHWM`) to the current resident size.
  static func resetHighWaterMark() -> Bool {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return write(descriptor, "5", 1) == 1
  }

  /// A size field of `/proc/self/status` (`VmRSS`, `VmHWM`), in bytes.
  static func procStatus(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }

  /// Writes `size` bytes 1 MiB at a time: one pseudo-random mebibyte, each copy stamped
  /// with its index, so that a lost, repeated or misplaced chunk shows.
  static func writeTestFile(at path: String, size: Int) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var chunk = TestBytes.make(1 << 20, seed: 100)
    var left = size
    var index: UInt64 = 0
    while left > 0 {
      let count = min(left, chunk.count)
      let written = chunk.withUnsafeMutableBytes { raw in
        raw.storeBytes(of: index.bigEndian, toByteOffset: 0, as: UInt64.self)
        return write(descriptor, raw.baseAddress!, count)
      }
      guard written == count else { throw POSIXError(.EIO) }
      left -= count
      index += 1
    }
  }

  /// Compares two files 1 MiB at a time.
  static func filesAreEqual(_ first: String, _ second: String) throws -> Bool {
    let a = open(first, O_RDONLY | O_CLOEXEC)
    let b = open(second, O_RDONLY | O_CLOEXEC)
    defer {
      close(a)
      close(b)
    }
    guard a >= 0, b >= 0 else { return false }
    var left = [UInt8](repeating: 0, count: 1 << 20)
    var right = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = readFully(a, &left)
      let m = readFully(b, &right)
      guard n == m else { return false }
      if n == 0 { return true }
      guard memcmp(left, right, n) == 0 else { return false }
    }
  }

  private static func readFully(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int {
    buffer.withUnsafeMutableBytes { raw in
      var filled = 0
      while filled < raw.count {
        let count = read(descriptor, raw.baseAddress! + filled, raw.count - filled)
        if count <= 0 { break }
        filled += count
      }
      return filled
    }
  }
}
