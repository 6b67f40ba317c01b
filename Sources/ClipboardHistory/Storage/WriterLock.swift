import FerrySystem

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

/// The one-writer rule: an exclusive `flock(2)` on `history.lock` beside the database,
/// held for the writer's life, with the holder's process id written in the file for the
/// error the next writer gets.
///
/// The kernel drops the lock when the holder's descriptor closes, however the holder ends
/// (SIGKILL included), so a stale lock never blocks a restart. Two stores in one process
/// conflict too: `flock` locks belong to open file descriptions, not to processes.
final class WriterLock: Sendable {
  /// The lock file's path.
  let path: String
  private let descriptor: TrackedMutex<Int32?>

  /// Takes the lock, or throws.
  ///
  /// - Throws: ``HistoryError/writerExists(lockPath:pid:)`` when another store holds it;
  ///   ``HistoryError/readOnlyDirectory(path:)`` when the file cannot be made.
  init(path: String) throws {
    self.path = path
    let file = try FileCalls.openOrCreate(path)
    do {
      _ = try Errno.retryingInterrupts { flock(file, LOCK_EX | LOCK_NB) }
    } catch {
      let holder = Self.holder(of: file)
      close(file)
      if error == .wouldBlock { throw HistoryError.writerExists(lockPath: path, pid: holder) }
      throw FileCalls.error(error.rawValue, path: path, operation: "flock")
    }
    let pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(file, 0)
    _ = pid.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, 0) }
    descriptor = TrackedMutex(file)
  }

  deinit { release() }

  /// Lets the lock go; a second call does nothing.
  func release() {
    let file = descriptor.withLock { file -> Int32? in
      defer { file = nil }
      return file
    }
    if let file { close(file) }
  }

  /// The process id the holder wrote, if it is readable.
  private static func holder(of file: Int32) -> Int32? {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return nil }
    return Int32(text[first...last])
  }
}
