import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The few file-system calls documents make beyond ``FileIO``: status without following
/// links, directory fsync, tree removal, and running blocking work off the cooperative pool.
enum DocumentFileSystem {
  /// What is at a path, without following a final symbolic link.
  enum Entry: Equatable {
    case missing
    case directory
    case regularFile(size: Int)
    case other
  }

  /// What is at `path` (`lstat(2)`).
  static func entry(at path: String) throws -> Entry {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return .missing }
      throw PasteboardError.io("stat \(path): \(String(cString: strerror(errno)))")
    }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFREG: return .regularFile(size: Int(status.st_size))
    default: return .other
    }
  }

  /// Creates a directory readable by its owner only: a document holds what was copied.
  static func makeDirectory(_ path: String) throws {
    guard mkdir(path, 0o700) == 0 else {
      throw PasteboardError.io("mkdir \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Flushes a directory's entries to disk, so that files created or renamed in it survive a
  /// power cut.
  static func syncDirectory(_ path: String) throws {
    try FileIO.mapped { try FileDescriptor.syncDirectory(atPath: path) }
  }

  /// Removes a file or a directory tree, ignoring failure: used for temporary and replaced
  /// copies, whose leftovers the next save removes.
  static func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The names in a directory; empty when it cannot be read.
  static func names(in directory: String) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  }

  /// Runs blocking file work (copies, fsyncs, renames) on a thread of its own, so that a long
  /// copy does not hold one of the few threads of Swift's cooperative pool. Not on a Dispatch
  /// global queue: on Linux those share the pool's threads, and under load a save waited there
  /// for more than 20 s behind blocked tasks (docs/TESTING.md).
  static func offload<Value: Sendable>(
    _ work: @escaping @Sendable () throws -> Value
  ) async throws -> Value {
    try await DetachedThread.run(name: "ferry-document", work)
  }
}
