import FerrySystem
import Logging
import Pasteboard

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

/// The declaration files `ferry register` gave the broker, kept under the data directory
/// (`registered/`) so that a restarted broker knows the same types and conversions.
///
/// Each file is kept under its name; `index.json` lists them in registration order with
/// what each needs to load again (the directory its relative commands are resolved
/// against). Registering a name again replaces that file and moves it to the end, as the
/// registry does. Every file and the index are replaced atomically (written aside, flushed,
/// renamed), so a broker killed mid-registration leaves the previous state.
public final class RegisteredDeclarations: Sendable {
  /// One kept registration.
  struct Entry: Codable, Equatable {
    /// The file's name inside the directory.
    var name: String
    /// What relative command paths are resolved against.
    var commandDirectory: String?
    /// Whether `com.example` identifiers were accepted.
    var allowExampleNamespace: Bool
  }

  /// The directory holding the files and the index.
  public let directory: URL
  private let entries: TrackedMutex<[Entry]>

  /// Opens (creating when needed) the kept registrations under `dataDirectory`.
  ///
  /// - Throws: When the directory cannot be created.
  public init(dataDirectory: URL) throws {
    directory = dataDirectory.appendingPathComponent("registered", isDirectory: true)
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let index = directory.appendingPathComponent("index.json")
    let kept = (try? Data(contentsOf: index)).flatMap {
      try? JSONDecoder().decode([Entry].self, from: $0)
    }
    entries = TrackedMutex(kept ?? [])
  }

  /// The path a registration named `name` is kept at.
  func path(of name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  /// Keeps `contents` as the registration `name` and returns its path.
  ///
  /// - Throws: When writing fails; what was kept before stays.
  func keep(_ contents: Data, as entry: Entry) throws -> String {
    let url = directory.appendingPathComponent(entry.name)
    try DurableFile.replace(url, with: contents)
    try entries.withLock { entries in
      var updated = entries.filter { $0.name != entry.name }
      updated.append(entry)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try DurableFile.replace(
        directory.appendingPathComponent("index.json"), with: try encoder.encode(updated))
      entries = updated
    }
    return url.path
  }

  /// Registers every kept file into `registry`, in the order they were registered; a file
  /// that is gone or no longer loads is logged and left out.
  ///
  /// - Returns: How many files loaded.
  @discardableResult
  public func load(into registry: ConverterRegistry, logger: Logger) -> Int {
    var loaded = 0
    for entry in entries.withLock({ $0 }) {
      do {
        let problems = try registry.registerDeclarations(
          from: path(of: entry.name), allowingExampleNamespace: entry.allowExampleNamespace,
          commandDirectory: entry.commandDirectory)
        for problem in problems { logger.warning("\(problem)") }
        loaded += 1
      } catch {
        logger.error(
          "a registered declaration file no longer loads",
          metadata: ["name": "\(entry.name)", "error": "\(error)"])
      }
    }
    return loaded
  }
}

/// Writing a file so that a crash leaves the old contents or the new, never a mix.
enum DurableFile {
  /// Writes `contents` beside `url`, flushes it to disk, renames it over `url` and flushes
  /// the directory.
  ///
  /// - Throws: ``FileError`` naming the call and the file that failed.
  static func replace(_ url: URL, with contents: Data) throws {
    let directory = url.deletingLastPathComponent().path
    let staging = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).new"
    ).path
    do {
      let file = try FileDescriptor.open(
        atPath: staging, .writeOnly, options: [.create, .truncate],
        permissions: [.ownerRead, .ownerWrite])
      do {
        try contents.withUnsafeBytes { try file.writeAll(from: $0, path: staging) }
        try file.sync(path: staging)
        try? file.close()
      } catch {
        try? file.close()
        throw error
      }
      guard rename(staging, url.path) == 0 else {
        throw FileError("rename", path: url.path, code: Errno(rawValue: errno))
      }
    } catch {
      unlink(staging)
      throw error
    }
    try? FileDescriptor.syncDirectory(atPath: directory)
  }
}
