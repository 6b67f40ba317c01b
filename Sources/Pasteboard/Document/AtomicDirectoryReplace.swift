import FerrySystem
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Replacing a directory with another in one step, so that a crash leaves either the old tree
/// or the new one, never a mixture.
///
/// A save writes the new tree into a staging sibling of the target
/// (`.<name>.tmp-<pid>-<random>`), flushed to disk, then swaps it in:
///
/// 1. `renameat2(staging, target, RENAME_EXCHANGE)` swaps the two names at once; the parent
///    is flushed, and the old tree — now under the staging name — is removed.
/// 2. Where the file system cannot exchange (`EINVAL`, `ENOSYS`), the target is renamed
///    aside (`.<name>.old-<pid>-<random>`), the staging tree renamed to the target, the
///    parent flushed after each step, and the aside copy removed. A crash between the two
///    renames leaves no target but a complete aside copy: ``recover(_:)``, called by `open`,
///    renames it back.
///
/// Siblings left by a process that died are stale: `open` ignores staging siblings (they
/// are not the document), and the next save removes both kinds (``removeStaleSiblings(of:)``).
/// A sibling is stale when the process id in its name no longer runs.
enum AtomicDirectoryReplace {
  /// Serializes the swaps of this process, so that two saves to one target never interleave
  /// their renames. Swaps are short (renames and a directory fsync); copies happen outside.
  private static let swapLock = TrackedMutex(())

  /// Whether `renameat2(RENAME_EXCHANGE)` may be tried: cleared after the first `EINVAL` or
  /// `ENOSYS` from a file system or kernel that lacks it.
  private static let exchangeAvailable = Atomic(true)

  /// The kind of sibling a save leaves next to its target.
  enum SiblingKind: String, CaseIterable {
    /// A new tree being written.
    case staging = "tmp"
    /// The replaced tree, renamed aside (only without `RENAME_EXCHANGE`).
    case aside = "old"
  }

  /// A fresh name for a sibling of `target` of `kind`, carrying this process's id.
  static func siblingURL(of target: URL, kind: SiblingKind, pid: Int32 = getpid()) -> URL {
    let random = UInt64.random(in: 0...UInt64.max)
    let name = ".\(target.lastPathComponent).\(kind.rawValue)-\(pid)-\(String(random, radix: 16))"
    return target.deletingLastPathComponent().appendingPathComponent(name, isDirectory: true)
  }

  /// The siblings of `target` of `kind` and the process id each names, by name.
  static func siblings(of target: URL, kind: SiblingKind) -> [(url: URL, pid: Int32)] {
    let parent = target.deletingLastPathComponent()
    let prefix = ".\(target.lastPathComponent).\(kind.rawValue)-"
    return DocumentFileSystem.names(in: parent.path).sorted().compactMap { name in
      guard name.hasPrefix(prefix) else { return nil }
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else {
        return nil
      }
      return (parent.appendingPathComponent(name, isDirectory: true), pid)
    }
  }

  /// Whether the process `pid` is gone, so that what it left is stale.
  static func isGone(_ pid: Int32) -> Bool {
    pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
  }

  /// Creates an empty staging directory next to `target`.
  static func makeStagingDirectory(for target: URL) throws -> URL {
    let staging = siblingURL(of: target, kind: .staging)
    try DocumentFileSystem.makeDirectory(staging.path)
    return staging
  }

  /// Removes the staging and aside siblings of `target` left by processes that are gone.
  static func removeStaleSiblings(of target: URL) {
    for kind in SiblingKind.allCases {
      for sibling in siblings(of: target, kind: kind) where isGone(sibling.pid) {
        DocumentFileSystem.removeTree(sibling.url.path)
      }
    }
  }

  /// Puts the complete, flushed tree at `staging` in place of `target`, which may not exist.
  /// On return the new tree is durable at `target` and the old one is removed; on a throw,
  /// `target` is as it was (the caller removes `staging`).
  ///
  /// - Parameters:
  ///   - staging: The new tree, a sibling of `target`.
  ///   - target: The path to replace.
  ///   - allowExchange: Whether `RENAME_EXCHANGE` may be used; tests clear it to run the
  ///     fallback.
  /// - Throws: ``PasteboardError/io(_:)`` naming the failed call.
  static func commit(_ staging: URL, to target: URL, allowExchange: Bool = true) throws {
    let parent = target.deletingLastPathComponent().path
    let replaced: String? = try swapLock.withLock { _ in
      if try DocumentFileSystem.entry(at: target.path) == .missing {
        try rename(staging.path, to: target.path)
        try DocumentFileSystem.syncDirectory(parent)
        return nil
      }
      if allowExchange, exchangeAvailable.load(ordering: .relaxed) {
        switch exchange(staging.path, target.path) {
        case 0:
          try DocumentFileSystem.syncDirectory(parent)
          return staging.path
        case EINVAL, ENOSYS:
          exchangeAvailable.store(false, ordering: .relaxed)
        case let code:
          throw PasteboardError.io(
            "renameat2 \(staging.path) \(target.path): \(String(cString: strerror(code)))")
        }
      }
      let aside = siblingURL(of: target, kind: .aside).path
      try rename(target.path, to: aside)
      try DocumentFileSystem.syncDirectory(parent)
      do {
        try rename(staging.path, to: target.path)
      } catch {
        _ = Glibc.rename(aside, target.path)
        throw error
      }
      try DocumentFileSystem.syncDirectory(parent)
      return aside
    }
    if let replaced { DocumentFileSystem.removeTree(replaced) }
  }

  /// Restores `target` after a crash between the two renames of the fallback swap: when the
  /// target is missing and an aside copy left by a process that is gone exists, the newest
  /// such copy is renamed back.
  ///
  /// - Returns: Whether a copy was restored.
  @discardableResult
  static func recover(_ target: URL) throws -> Bool {
    try swapLock.withLock { _ in
      guard try DocumentFileSystem.entry(at: target.path) == .missing else { return false }
      let candidates = siblings(of: target, kind: .aside).filter { isGone($0.pid) }
      let newest = candidates.max { modificationTime($0.url.path) < modificationTime($1.url.path) }
      guard let newest else { return false }
      try rename(newest.url.path, to: target.path)
      try DocumentFileSystem.syncDirectory(target.deletingLastPathComponent().path)
      return true
    }
  }

  private static func modificationTime(_ path: String) -> Double {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
  }

  private static func rename(_ source: String, to destination: String) throws {
    guard Glibc.rename(source, destination) == 0 else {
      throw PasteboardError.io(
        "rename \(source) \(destination): \(String(cString: strerror(errno)))")
    }
  }

  // MARK: renameat2

  /// `renameat2(2)`'s signature. Glibc declares it only under `_GNU_SOURCE`, which Swift's
  /// Glibc module does not define, and `syscall(2)` is variadic, so it is looked up by name.
  private typealias RenameAt2 =
    @convention(c) (
      Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32
    ) -> Int32

  /// The corresponding C constant is `RENAME_EXCHANGE` (`<linux/fs.h>`).
  private static let renameExchange: UInt32 = 1 << 1

  /// Glibc's `renameat2`, when this C library has it (glibc 2.28 and later).
  private static let renameat2: RenameAt2? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
    return unsafeBitCast(symbol, to: RenameAt2.self)
  }()

  /// Exchanges two paths atomically; 0 or the `errno` value (`ENOSYS` without `renameat2`).
  private static func exchange(_ first: String, _ second: String) -> Int32 {
    guard let renameat2 else { return ENOSYS }
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 ? 0 : errno
  }
}
