import FerrySystem
import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// Where the peers live that SwiftPM does not build: `Tests/Peers/`, next to this target.
enum PeerSources {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // X11SelectionsTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("Peers")

  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// A scratch directory for one test, removed when the value is dropped.
final class ScratchDirectory: Sendable {
  let url: URL

  init(_ label: String = "x11") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// A selection name no other test uses, for peers that accept any name (the probe, GTK,
/// Ferry itself), so those tests run in parallel on the shared Xvfb.
func uniqueSelection(_ label: String) -> Selection {
  Selection(rawValue: "FERRY_TEST_\(label.uppercased())_\(UUID().uuidString.prefix(8))")
}

private let sharedServer = OnceOffThePool { try XvfbServer.shared() }

/// A new connection to the test process's Xvfb (started on first use, off the pool).
func openDisplay() async throws -> (XvfbServer, X11Display) {
  let xvfb = try await sharedServer.value
  let name = xvfb.name
  return (xvfb, try await DetachedThread.run { try X11Display(name: name) })
}

/// A new connection to the test process's Xvfb whose deadlines follow `clock`.
func openDisplay(clock: ManualClock) async throws -> (XvfbServer, X11Display) {
  let xvfb = try await sharedServer.value
  let name = xvfb.name
  return (xvfb, try await DetachedThread.run { try X11Display(name: name, clock: clock) })
}

/// A text item.
func textItem(_ text: String) -> PasteboardItem {
  PasteboardItem(representations: [.data(Data(text.utf8), type: .utf8PlainText)])
}

extension X11Display {
  /// Waits until `selection` has an owner other than `previous`.
  func waitForOwner(
    of selection: Selection, other previous: XWindow = .none, timeout: Duration = .seconds(10)
  )
    async -> Bool
  {
    await Deadline.wait(for: timeout) {
      guard let owner = try? await self.owner(of: selection) else { return false }
      return owner != .none && owner != previous
    }
  }

  /// Waits until `selection` has no owner.
  func waitForNoOwner(of selection: Selection, timeout: Duration = .seconds(10)) async -> Bool {
    await Deadline.wait(for: timeout) { (try? await self.owner(of: selection)) == XWindow.none }
  }
}

// MARK: Payloads

/// Deterministic pseudo-random bytes (SplitMix64), so a failing size can be reproduced.
/// Generated off the pool: 64 MiB is real work in a debug build.
enum RandomPayload {
  static func bytes(count: Int, seed: UInt64) async -> Data {
    try! await DetachedThread.run {
      var data = Data(count: count)
      data.withUnsafeMutableBytes { _ = fill($0, state: seed) }
      return data
    }
  }

  /// Writes `count` seeded bytes to `url`, four megabytes at a time.
  static func write(count: Int, seed: UInt64, to url: URL) async throws {
    try await DetachedThread.run {
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
      let handle = try FileHandle(forWritingTo: url)
      defer { try? handle.close() }
      var state = seed
      var remaining = count
      var block = Data(count: 4 << 20)
      while remaining > 0 {
        let size = min(remaining, block.count)
        block.withUnsafeMutableBytes {
          state = fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<size]), state: state)
        }
        try handle.write(contentsOf: block.prefix(size))
        remaining -= size
      }
    }
  }

  private static func fill(_ buffer: UnsafeMutableRawBufferPointer, state: UInt64) -> UInt64 {
    var state = state
    let words = buffer.count / 8
    let base = buffer.baseAddress!
    var index = 0
    while index < words {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
      base.storeBytes(of: z ^ (z &>> 31), toByteOffset: index &* 8, as: UInt64.self)
      index &+= 1
    }
    var tail = words * 8
    while tail < buffer.count {
      state &+= 0x9E37_79B9_7F4A_7C15
      buffer[tail] = UInt8(truncatingIfNeeded: state &>> 17)
      tail += 1
    }
    return state
  }
}

/// Whether two files hold the same bytes, compared four megabytes at a time, off the pool.
func filesAreEqual(_ first: URL, _ second: URL) async throws -> Bool {
  try await DetachedThread.run { try compareFiles(first, second) }
}

private func compareFiles(_ first: URL, _ second: URL) throws -> Bool {
  let a = try FileHandle(forReadingFrom: first)
  let b = try FileHandle(forReadingFrom: second)
  defer {
    try? a.close()
    try? b.close()
  }
  while true {
    let left = try a.read(upToCount: 4 << 20) ?? Data()
    let right = try b.read(upToCount: 4 << 20) ?? Data()
    if left != right { return false }
    if left.isEmpty { return true }
  }
}

func fileSize(_ url: URL) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.intValue
    ?? -1
}

extension Data {
  var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// Collects what an async stream yields, for polling with a deadline.
final class Collected<Element: Sendable>: Sendable {
  private let elements = TrackedMutex<[Element]>([])
  private let task: TrackedMutex<Task<Void, Never>?> = TrackedMutex(nil)

  init(_ stream: AsyncStream<Element>) {
    let task = Task { [weak self] in
      for await element in stream { self?.elements.withLock { $0.append(element) } }
    }
    self.task.withLock { $0 = task }
  }

  var all: [Element] { elements.withLock { $0 } }

  /// Waits until `condition` holds for what has arrived.
  func wait(for limit: Duration = .seconds(10), _ condition: @escaping ([Element]) -> Bool) async
    -> Bool
  {
    await Deadline.wait(for: limit) { () async -> Bool in condition(self.all) }
  }

  func cancel() { task.withLock { $0?.cancel() } }
}

/// SHA-256 of `data` in hex, as the GTK peer prints it (computed by sha256sum, off the pool).
func sha256Hex(_ data: Data) async throws -> String {
  let scratch = try ScratchDirectory("sha")
  let file = scratch.file("data")
  try data.write(to: file)
  let result = try await runPeer(["sha256sum", file.path], display: ":0")
  return String(result.stdoutText.prefix(64))
}

/// A thread-safe count, for callbacks such as `onLost`.
final class Counter: Sendable {
  private let count = TrackedMutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

extension Data {
  /// Bytes from lowercase or uppercase hex; `nil` when malformed.
  init?(hex: String) {
    var bytes: [UInt8] = []
    var iterator = hex.utf8.makeIterator()
    while let high = iterator.next() {
      guard let low = iterator.next(),
        let byte = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else {
        return nil
      }
      bytes.append(byte)
    }
    self.init(bytes)
  }
}
