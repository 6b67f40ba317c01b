import Foundation
import Synchronization
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

#if canImport(Glibc)
  import Glibc
#endif

/// Helpers of the document tests: scratch directories, package inspection, streamed file
/// comparison, and waiting with a deadline.
enum DocumentTesting {
  /// A fresh directory under the temporary directory, removed by `body`'s end.
  static func withScratchDirectory<T>(
    _ label: String = #function, _ body: (URL) async throws -> T
  ) async throws -> T {
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-doc-\(safe)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
  }

  /// Every file under `directory` (relative path → bytes), for checking that nothing changed.
  static func snapshot(of directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let paths = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
    for path in paths {
      let url = directory.appendingPathComponent(path)
      let type =
        try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
      if type == .typeRegular { files[path] = try Data(contentsOf: url) }
      if type == .typeSymbolicLink {
        files[path] = Data(
          "-> \(try FileManager.default.destinationOfSymbolicLink(atPath: url.path))".utf8)
      }
    }
    return files
  }

  /// The names of `directory`'s entries, sorted.
  static func names(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  /// The bytes of `type` in `item`.
  static func bytes(_ item: PasteboardItem, _ type: UTType) async throws -> Data {
    try await item.data(for: type)
  }

  /// The manifest of a package as JSON objects, for tests that damage it.
  static func manifestObject(of package: URL) throws -> [String: Any] {
    let data = try Data(contentsOf: package.appendingPathComponent("manifest.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// Writes a manifest object back.
  static func writeManifestObject(_ object: [String: Any], to package: URL) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    try data.write(to: package.appendingPathComponent("manifest.json"))
  }

  /// Writes a file of `size` bytes by repeating a 1 MiB pattern (a counter, so that a chunk
  /// out of place shows), never holding more than the pattern in memory.
  static func writeLargeFile(at url: URL, size: Int) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw PasteboardError.io("create \(url.path)") }
    defer { close(descriptor) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var written = 0
    var counter: UInt32 = 0
    while written < size {
      chunk.withUnsafeMutableBytes { buffer in
        for offset in stride(from: 0, to: buffer.count, by: 4096) {
          buffer.storeBytes(of: counter, toByteOffset: offset, as: UInt32.self)
          counter &+= 1
        }
      }
      let count = min(chunk.count, size - written)
      try chunk.withUnsafeBytes { buffer in
        try FileIO.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: descriptor)
      }
      written += count
    }
  }

  /// Whether two files hold the same bytes, read side by side in 1 MiB chunks.
  static func filesAreEqual(_ first: URL, _ second: URL) throws -> Bool {
    let one = try FileHandle(forReadingFrom: first)
    let two = try FileHandle(forReadingFrom: second)
    defer {
      try? one.close()
      try? two.close()
    }
    while true {
      let a = try one.read(upToCount: 1 << 20) ?? Data()
      let b = try two.read(upToCount: 1 << 20) ?? Data()
      if a != b { return false }
      if a.isEmpty { return true }
    }
  }

  /// The peak resident set size of this process so far, in bytes (`ru_maxrss`).
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  }
}

extension PasteboardError {
  /// The reason of an `invalidDocument` error; `nil` for other cases.
  var invalidDocumentReason: String? {
    if case .invalidDocument(_, let reason) = self { return reason }
    return nil
  }
}
