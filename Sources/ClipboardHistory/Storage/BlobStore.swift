#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The content-addressed files under the data directory's `blobs/`: one file per distinct
/// content, named by its SHA-256, shared by every representation that holds those bytes.
///
/// A blob is written to a staging file (`.staging-<pid>-<uuid>`), flushed, and renamed into
/// place; the directory is flushed before the row that names the blob commits (see
/// ``HistoryStore/record(_:)``). A crash leaves at most a staging file or a blob no row
/// names, and ``sweep(keeping:)`` removes both.
struct BlobStore: Sendable {
  /// The prefix of staging files' names.
  static let stagingPrefix = ".staging-"

  /// The `blobs/` directory.
  let directory: String

  /// The path of the blob named `sha256`.
  func path(of sha256: String) -> String {
    "\(directory)/\(sha256)"
  }

  /// Whether the blob named `sha256` is present with `size` bytes.
  func holds(_ sha256: String, size: Int64) -> Bool {
    FileCalls.size(of: path(of: sha256)) == size
  }

  /// Writes `data` as the blob named `sha256`, unless that blob is already there.
  ///
  /// - Returns: Whether a new file was made.
  func store(_ data: Data, sha256: String) throws -> Bool {
    if holds(sha256, size: Int64(data.count)) { return false }
    let staging = stagingPath()
    do {
      let output = try FileCalls.createExclusive(staging)
      defer { close(output) }
      try data.withUnsafeBytes { try FileCalls.writeAll($0, to: output, path: directory) }
      try FileCalls.sync(output, path: directory)
      try FileCalls.rename(staging, to: path(of: sha256))
      return true
    } catch {
      FileCalls.remove(staging)
      throw error
    }
  }

  /// What ``store(contentsOf:path:budget:textBytes:)`` did with a file.
  enum FileOutcome {
    /// The file's bytes are the blob `sha256` (`created` when this call made it), and
    /// `textPrefix` holds their first bytes.
    case stored(sha256: String, size: Int64, created: Bool, textPrefix: Data)
    /// The file held more than the budget; nothing was kept. `size` is what was read.
    case overBudget(size: Int64)
  }

  /// Copies an open file into a blob in chunks, hashing as it goes: never more than a chunk
  /// in memory.
  ///
  /// - Parameters:
  ///   - source: A descriptor open for reading at the file's start.
  ///   - sourcePath: The file's path, named in errors.
  ///   - budget: The most bytes to accept.
  ///   - textBytes: How many leading bytes to return as `textPrefix` (0 for none).
  func store(contentsOf source: Int32, path sourcePath: String, budget: Int64, textBytes: Int)
    throws -> FileOutcome
  {
    let staging = stagingPath()
    let hasher = SHA256Hasher()
    var size: Int64 = 0
    var prefix = Data()
    do {
      let output = try FileCalls.createExclusive(staging)
      defer { close(output) }
      try FileCalls.readChunks(of: source, path: sourcePath) { chunk in
        size += Int64(chunk.count)
        if size > budget { throw OverBudget() }
        hasher.update(chunk)
        if prefix.count < textBytes {
          prefix.append(contentsOf: chunk.prefix(textBytes - prefix.count))
        }
        try FileCalls.writeAll(chunk, to: output, path: directory)
      }
      try FileCalls.sync(output, path: directory)
    } catch is OverBudget {
      FileCalls.remove(staging)
      return .overBudget(size: size)
    } catch {
      FileCalls.remove(staging)
      throw error
    }
    let sha256 = ContentHash.hex(hasher.finalize())
    if holds(sha256, size: size) {
      FileCalls.remove(staging)
      return .stored(sha256: sha256, size: size, created: false, textPrefix: prefix)
    }
    do {
      try FileCalls.rename(staging, to: path(of: sha256))
    } catch {
      FileCalls.remove(staging)
      throw error
    }
    return .stored(sha256: sha256, size: size, created: true, textPrefix: prefix)
  }

  /// Flushes the directory, so the renames into it survive a crash of the machine.
  func sync() throws {
    try FileCalls.syncDirectory(directory)
  }

  /// Removes the blobs named in `hashes`.
  func remove(_ hashes: some Sequence<String>) {
    for sha256 in hashes { FileCalls.remove(path(of: sha256)) }
  }

  /// Removes every staging file and every blob not in `referenced`. Only the writer calls
  /// it, when no recording is under way, so every staging file is a crashed write's.
  ///
  /// - Returns: How many files were removed.
  @discardableResult
  func sweep(keeping referenced: Set<String>) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var removed = 0
    for name in names
    where name.hasPrefix(Self.stagingPrefix)
      || (ContentHash.isDigest(name) && !referenced.contains(name))
    {
      FileCalls.remove(path(of: name))
      removed += 1
    }
    return removed
  }

  private func stagingPath() -> String {
    "\(directory)/\(Self.stagingPrefix)\(getpid())-\(UUID().uuidString)"
  }

  /// Stops a copy that went over its budget.
  private struct OverBudget: Error {}
}
