import FerrySystem
import Pasteboard
import UniformTypeIdentifiers

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

/// A private directory (mode 0700) where the broker keeps large representations written
/// through the socket, so that their bytes are never held in memory whole.
///
/// Each broker process makes its own directory, `<parent>/<pid>-<random>`; files in it are
/// 0600 and are removed when the items holding them go away, and the directory when the
/// spool and every file are gone. Directories of broker processes that no longer run are
/// removed when a new spool is made. Concealed items never come here (see
/// docs/PROTOCOL.md).
///
/// ```swift
/// let spool = try SpoolDirectory()
/// let writer = try spool.makeFile()
/// try writer.write(bytes)
/// let file = try writer.finish()     // a SpooledFile; unlinked when released
/// ```
public final class SpoolDirectory: Sendable {
  /// The directory's path.
  public let path: String

  /// Makes a new spool directory under `parent`, created (0700) if missing.
  ///
  /// - Parameter parent: Where spools live; ``defaultParent(environment:)`` when `nil`.
  /// - Throws: ``SpoolError`` when a directory cannot be made.
  public init(parent: String? = nil) throws(SpoolError) {
    let parent = parent ?? Self.defaultParent()
    try Self.makeDirectories(parent)
    Self.removeStale(in: parent)
    let name = "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    let path = parent + "/" + String(name)
    guard mkdir(path, 0o700) == 0 else {
      throw .cannotCreate(path, .last)
    }
    _ = chmod(path, 0o700)
    self.path = path
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Where spools live: `$XDG_CACHE_HOME/ferry/spool`, else `$HOME/.cache/ferry/spool`, else
  /// `/tmp/ferry-<uid>/spool`. A cache directory rather than the runtime directory, which is
  /// usually a small RAM-backed file system.
  public static func defaultParent(
    environment: [String: String] = ProcessInfo.processInfo.environment
  )
    -> String
  {
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      return cache + "/ferry/spool"
    }
    if let home = environment["HOME"], home.hasPrefix("/"), home != "/" {
      return home + "/.cache/ferry/spool"
    }
    return "/tmp/ferry-\(getuid())/spool"
  }

  /// Starts a new file in the spool.
  ///
  /// - Throws: ``SpoolError`` when it cannot be created.
  public func makeFile() throws(SpoolError) -> SpoolWriter {
    let path = self.path + "/" + UUID().uuidString
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .cannotCreate(path, .last)
    }
    return SpoolWriter(file: SpooledFile(path: path, spool: self), descriptor: descriptor)
  }

  /// A path in the spool for a file with `name` (a registered declaration file): the same
  /// name always gives the same path.
  func reservedPath(named name: String) throws(SpoolError) -> String {
    let directory = path + "/declarations"
    if mkdir(directory, 0o700) != 0, errno != EEXIST {
      throw .cannotCreate(directory, .last)
    }
    return directory + "/" + name
  }

  /// Creates `path` and its missing parents, each 0700.
  private static func makeDirectories(_ path: String) throws(SpoolError) {
    var current = ""
    for component in path.split(separator: "/") {
      current += "/" + component
      if mkdir(current, 0o700) != 0, errno != EEXIST {
        throw .cannotCreate(current, .last)
      }
    }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid()
    else {
      throw .notPrivate(path)
    }
  }

  /// Removes spools of broker processes that have ended.
  private static func removeStale(in parent: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
    for name in names {
      guard let dash = name.firstIndex(of: "-"), let pid = Int32(name[..<dash]), pid != getpid()
      else { continue }
      if kill(pid, 0) != 0, errno == ESRCH {
        try? FileManager.default.removeItem(atPath: parent + "/" + name)
      }
    }
  }
}

/// A file in a spool, unlinked when the last reference to it goes away (the item that
/// holds it was replaced).
public final class SpooledFile: Sendable {
  /// The file's path.
  public let path: String
  /// Keeps the directory until its last file is gone.
  private let spool: SpoolDirectory

  init(path: String, spool: SpoolDirectory) {
    self.path = path
    self.spool = spool
  }

  deinit { unlink(path) }

  /// A representation serving the file in place, owning it: the file lives as long as the
  /// item does.
  public func representation(of type: UTType) -> PasteboardRepresentation {
    .lazy(type) { [self] in .file(URL(fileURLWithPath: self.path)) }
  }
}

/// Appends bytes to a new spool file. Blocking: call it from a thread pool, not an event
/// loop.
public final class SpoolWriter: Sendable {
  /// The file being written.
  public let file: SpooledFile
  private let descriptor: TrackedMutex<Int32?>

  init(file: SpooledFile, descriptor: Int32) {
    self.file = file
    self.descriptor = TrackedMutex(descriptor)
  }

  deinit {
    if let descriptor = descriptor.withLock({ $0 }) { close(descriptor) }
  }

  /// Appends `bytes`.
  ///
  /// - Throws: ``SpoolError/writeFailed(_:reason:)``.
  public func write(_ bytes: some ContiguousBytes) throws(SpoolError) {
    let result: Errno? = descriptor.withLock { descriptor in
      guard let descriptor else { return .badFileDescriptor }
      return bytes.withUnsafeBytes { raw in
        do throws(Errno) {
          try FileDescriptor(rawValue: descriptor).writeAll(from: raw)
          return nil
        } catch {
          return error
        }
      }
    }
    if let error = result {
      throw .writeFailed(file.path, error)
    }
  }

  /// Closes the file and hands it over.
  public func finish() -> SpooledFile {
    if let descriptor = descriptor.withLock({ value -> Int32? in
      defer { value = nil }
      return value
    }) {
      close(descriptor)
    }
    return file
  }
}

/// Why the spool failed.
public enum SpoolError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A directory or file could not be created.
  case cannotCreate(String, Errno)
  /// A directory on the way is not a directory this user owns.
  case notPrivate(String)
  /// Writing a file failed (a full disk).
  case writeFailed(String, Errno)

  public var description: String {
    switch self {
    case .cannotCreate(let path, _), .notPrivate(let path):
      return "cannot create \(path): \(reason)"
    case .writeFailed(let path, _): return "writing \(path) failed: \(reason)"
    }
  }

  /// The system's reason alone (`No space left on device`).
  public var reason: String {
    switch self {
    case .cannotCreate(_, let error), .writeFailed(_, let error): return "\(error)"
    case .notPrivate: return "not a directory owned by this user"
    }
  }
}
