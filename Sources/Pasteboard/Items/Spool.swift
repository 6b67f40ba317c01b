import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A directory of files an item made (copies of exported files, conversions too large for
/// memory), removed with the item.
final class Spool: Sendable {
  /// The directory, created on first use under its parent.
  let directory: URL

  /// A spool under `parent`, or under the temporary directory when `parent` is `nil`.
  init(parent: String? = nil) {
    let base =
      parent.map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.temporaryDirectory
    directory = base.appendingPathComponent(
      "ferry-spool-\(getpid())-\(UUID().uuidString)", isDirectory: true)
  }

  /// The directory, created if needed.
  func prepared() throws -> URL {
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return directory
  }

  /// A new empty file (0600) in the directory, open for writing.
  ///
  /// - Returns: The file and its descriptor, which the caller closes.
  /// - Throws: ``PasteboardError/io(_:)`` when it cannot be created.
  func makeFile() throws -> (url: URL, descriptor: Int32) {
    let url = try prepared().appendingPathComponent(UUID().uuidString)
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw PasteboardError.io("create \(url.path): \(String(cString: strerror(errno)))")
    }
    return (url, descriptor)
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }
}
