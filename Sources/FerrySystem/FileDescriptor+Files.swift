#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A file call that failed, with the path it was on: the one error of FerrySystem's file
/// calls, which each module turns into its own (`PasteboardError.io`, `HistoryError`, …).
///
/// ```swift
/// // "open /tmp/missing: No such file or directory"
/// catch let error as FileError { print(error) }
/// ```
public struct FileError: Error, Equatable, CustomStringConvertible {
  /// The call, as messages name it: `open`, `create`, `read`, `write`, `fsync`.
  public var operation: String
  /// The file or directory the call was on.
  public var path: String
  /// The system's reason.
  public var code: Errno

  public init(_ operation: String, path: String, code: Errno) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  /// `OPERATION PATH: REASON`, the reason as `strerror(3)` gives it.
  public var description: String { "\(operation) \(path): \(code)" }
}

/// Files by path: opening, creating, writing every byte, reading in chunks and flushing to
/// disk, with interrupted calls retried and every failure a ``FileError`` naming the path.
extension FileDescriptor {
  /// The chunk files are read in when the caller does not say.
  public static let fileChunkSize = 1 << 20

  /// Opens the file at `path`, close-on-exec.
  ///
  /// - Throws: ``FileError`` (`open`).
  public static func open(
    atPath path: String, _ mode: AccessMode, options: OpenOptions = [],
    permissions: FilePermissions? = nil
  ) throws(FileError) -> FileDescriptor {
    do {
      return try Errno.catching {
        try FileDescriptor.open(
          FilePath(path), mode, options: options.union(.closeOnExec), permissions: permissions)
      }
    } catch {
      throw FileError("open", path: path, code: error)
    }
  }

  /// Creates a new file at `path` for writing, close-on-exec; fails with `.fileExists` in the
  /// error when something is already there (`O_CREAT | O_EXCL`).
  ///
  /// - Parameter permissions: The new file's mode (before the umask): the owner's only unless
  ///   said.
  /// - Throws: ``FileError`` (`create`).
  public static func createExclusive(
    atPath path: String, permissions: FilePermissions = [.ownerRead, .ownerWrite]
  ) throws(FileError) -> FileDescriptor {
    do {
      return try Errno.catching {
        try FileDescriptor.open(
          FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
          permissions: permissions)
      }
    } catch {
      throw FileError("create", path: path, code: error)
    }
  }

  /// Writes every byte of `bytes` (interrupted and short writes retried) to this descriptor,
  /// open on `path`.
  ///
  /// - Throws: ``FileError`` (`write`); what was written before stays written.
  public func writeAll(from bytes: UnsafeRawBufferPointer, path: String) throws(FileError) {
    do {
      try writeAll(from: bytes)
    } catch {
      throw FileError("write", path: path, code: error)
    }
  }

  /// Reads this descriptor, open on `path`, to its end a chunk at a time into one buffer,
  /// calling `body` with each: full chunks, a shorter one last. Interrupted and short reads
  /// are retried.
  ///
  /// ```swift
  /// try file.readChunks(path: path) { chunk in hasher.update(chunk) }
  /// ```
  ///
  /// - Throws: ``FileError`` (`read`) when a read fails, or what `body` throws.
  public func readChunks(
    path: String, chunkSize: Int = fileChunkSize, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do {
        count = try read(filling: buffer)
      } catch {
        throw FileError("read", path: path, code: error)
      }
      if count > 0 { try body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
      if count < chunkSize { return }
    }
  }

  /// Flushes the file's contents to the disk (`fsync(2)`); `path` is what errors name.
  ///
  /// - Throws: ``FileError`` (`fsync`).
  public func sync(path: String) throws(FileError) {
    do {
      _ = try Errno.retryingInterrupts { fsync(rawValue) }
    } catch {
      throw FileError("fsync", path: path, code: error)
    }
  }

  /// Flushes the entries of the directory at `path` to the disk, so that files created or
  /// renamed in it survive a power cut.
  ///
  /// - Throws: ``FileError`` (`open`, `fsync`).
  public static func syncDirectory(atPath path: String) throws(FileError) {
    let directory = try open(atPath: path, .readOnly, options: .directory)
    defer { try? directory.close() }
    try directory.sync(path: path)
  }
}
