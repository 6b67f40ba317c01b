import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A directory of files an item made (copies of exported files), removed with the item.
final class Spool: Sendable {
  /// The directory, created on first use under the temporary directory.
  let directory: URL

  init() {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-spool-\(getpid())-\(UUID().uuidString)", isDirectory: true)
  }

  /// The directory, created if needed.
  func prepared() throws -> URL {
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return directory
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }
}
