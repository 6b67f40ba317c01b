import FerrySystem
import Foundation
import Testing

/// The file layer every module's file work goes through: open, create, write, read in chunks,
/// flush, each failure a `FileError` naming the path.
@Suite struct FileDescriptorFilesTests {
  private static func directory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-files-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  @Test func writtenBytesComeBackInFullChunksThenAShortOne() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/file"
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
    let output = try FileDescriptor.createExclusive(atPath: path)
    try bytes.withUnsafeBytes { try output.writeAll(from: $0, path: path) }
    try output.sync(path: path)
    try output.close()
    try FileDescriptor.syncDirectory(atPath: directory)

    let input = try FileDescriptor.open(atPath: path, .readOnly)
    defer { try? input.close() }
    var chunks: [Int] = []
    var read: [UInt8] = []
    try input.readChunks(path: path, chunkSize: 4096) { chunk in
      chunks.append(chunk.count)
      read += chunk
    }
    #expect(chunks == [4096, 4096, 1808])
    #expect(read == bytes)
    let permissions =
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(permissions == 0o600, "a new file is its owner's only")
  }

  @Test func failuresNameTheCallAndThePath() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let missing = directory + "/missing"
    #expect(throws: FileError("open", path: missing, code: .noSuchFileOrDirectory)) {
      try FileDescriptor.open(atPath: missing, .readOnly)
    }
    #expect(
      FileError("open", path: missing, code: .noSuchFileOrDirectory).description
        == "open \(missing): No such file or directory")
    #expect(throws: FileError("open", path: missing, code: .noSuchFileOrDirectory)) {
      try FileDescriptor.syncDirectory(atPath: missing)
    }
    let taken = directory + "/taken"
    try FileDescriptor.createExclusive(atPath: taken).close()
    #expect(throws: FileError("create", path: taken, code: .fileExists)) {
      try FileDescriptor.createExclusive(atPath: taken)
    }
  }

  @Test func aBodysErrorPassesThroughUnchanged() throws {
    struct Stop: Error {}
    let input = try FileDescriptor.open(atPath: "/proc/self/status", .readOnly)
    defer { try? input.close() }
    #expect(throws: Stop.self) {
      try input.readChunks(path: "/proc/self/status") { _ in throw Stop() }
    }
  }
}
