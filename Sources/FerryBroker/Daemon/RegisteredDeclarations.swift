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
    let contents = try? Data(contentsOf: index)
    let kept = contents.flatMap { try? JSONDecoder().decode([Entry].self, from: $0) }
    entries = TrackedMutex(kept ?? [])
    indexIsUnreadable = contents != nil && kept == nil
  }

  /// Whether `index.json` was there but did not read; ``load(into:logger:)`` sets it aside.
  private let indexIsUnreadable: Bool

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
      try writeIndex(updated)
      entries = updated
    }
    return url.path
  }

  /// Registers every kept file into `registry`, in the order they were registered.
  ///
  /// A kept file that no longer reads (damaged on disk, or kept by a broker that checked less)
  /// is set aside: moved to `set-aside/` under the directory, never deleted, and left out of
  /// the index, with one line naming it and where it went. A file that is gone is left out of
  /// the index with one line. The broker starts either way.
  ///
  /// - Returns: How many files loaded.
  @discardableResult
  public func load(into registry: ConverterRegistry, logger: Logger) -> Int {
    var loaded = 0
    var dropped: Set<String> = []
    if indexIsUnreadable {
      // The files stay where they are; registering them again rebuilds the index.
      let aside = (try? setAside("index.json")) ?? "nowhere (it could not be moved)"
      logger.error(
        "the index of registered declaration files \(path(of: "index.json")) does not read, moved to \(aside); the files it listed are not loaded"
      )
    }
    for entry in entries.withLock({ $0 }) {
      let path = path(of: entry.name)
      do {
        let problems = try registry.registerDeclarations(
          from: path, allowingExampleNamespace: entry.allowExampleNamespace,
          commandDirectory: entry.commandDirectory)
        for problem in problems { logger.warning("\(problem)") }
        loaded += 1
      } catch {
        dropped.insert(entry.name)
        let reason = "\(error)".replacing(path, with: entry.name)
        guard access(path, F_OK) == 0 else {
          logger.error("registered declaration file \(path) is gone; left out: \(reason)")
          continue
        }
        do {
          let aside = try setAside(entry.name)
          logger.error(
            "registered declaration file \(path) no longer reads, moved to \(aside): \(reason)")
        } catch {
          logger.error(
            "registered declaration file \(path) no longer reads and could not be moved aside (\(error)): \(reason)"
          )
        }
      }
    }
    if !dropped.isEmpty {
      do {
        try entries.withLock { entries in
          let kept = entries.filter { !dropped.contains($0.name) }
          try writeIndex(kept)
          entries = kept
        }
      } catch {
        logger.error("cannot rewrite \(directory.path)/index.json: \(error)")
      }
    }
    return loaded
  }

  /// Moves the kept file `name` into `set-aside/` (as `name.1`, `name.2`… when that name is
  /// taken) and returns its new path.
  private func setAside(_ name: String) throws -> String {
    let aside = directory.appendingPathComponent("set-aside", isDirectory: true)
    try FileManager.default.createDirectory(
      at: aside, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var target = aside.appendingPathComponent(name).path
    var suffix = 0
    while access(target, F_OK) == 0 {
      suffix += 1
      target = aside.appendingPathComponent("\(name).\(suffix)").path
    }
    guard rename(path(of: name), target) == 0 else {
      throw FileError("rename", path: path(of: name), code: Errno(rawValue: errno))
    }
    return target
  }

  /// Replaces the index with `entries`.
  private func writeIndex(_ entries: [Entry]) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try DurableFile.replace(
      directory.appendingPathComponent("index.json"), with: try encoder.encode(entries))
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
