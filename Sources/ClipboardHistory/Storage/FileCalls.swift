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
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few system calls the store makes on files, through FerrySystem (which retries
/// `EINTR`), turning `errno` and FerrySystem's ``FileError`` into a ``HistoryError`` at this
/// one boundary.
enum FileCalls {
  /// The error for a failed call: a full disk, a read-only file system, or the call's reason.
  static func error(_ code: Int32, path: String, operation: String) -> HistoryError {
    switch code {
    case ENOSPC, EDQUOT:
      return .diskFull(path: path)
    case EROFS, EACCES, EPERM:
      return .readOnlyDirectory(path: HistoryStore.directory(of: path))
    default:
      return .io(path: path, operation: operation, reason: String(cString: strerror(code)))
    }
  }

  /// The error for a failed FerrySystem file call.
  static func error(_ error: FileError) -> HistoryError {
    self.error(error.code.rawValue, path: error.path, operation: error.operation)
  }

  /// Opens `path` for reading and writing, creating it (private to the user) when missing.
  static func openOrCreate(_ path: String) throws -> Int32 {
    do {
      return try FileDescriptor.open(
        atPath: path, .readWrite, options: .create, permissions: [.ownerRead, .ownerWrite]
      )
      .rawValue
    } catch {
      throw self.error(error)
    }
  }

  /// Creates a new file at `path`, private to the user, for writing; fails when one is there.
  static func createExclusive(_ path: String) throws -> Int32 {
    do {
      return try FileDescriptor.createExclusive(atPath: path).rawValue
    } catch {
      throw self.error(error)
    }
  }

  /// Opens a file given to record, for reading.
  static func openSource(_ path: String) throws -> Int32 {
    do {
      return try FileDescriptor.open(atPath: path, .readOnly).rawValue
    } catch {
      throw HistoryError.unreadableSource(path: path, reason: "\(error.code)")
    }
  }

  /// Makes a directory and its missing parents, private to the user.
  static func makeDirectory(_ path: String) throws {
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
    let parent = HistoryStore.directory(of: path)
    if parent != path, !parent.isEmpty { try makeDirectory(parent) }
    if mkdir(path, 0o700) != 0, errno != EEXIST {
      throw error(errno, path: path, operation: "mkdir")
    }
  }

  /// Writes every byte of `buffer` to `descriptor` (open on `path`, named in errors).
  static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws
  {
    do {
      try FileDescriptor(rawValue: descriptor).writeAll(from: buffer, path: path)
    } catch {
      throw self.error(error)
    }
  }

  /// Reads `descriptor` (open on `path`) to its end in chunks, calling `body` with each.
  ///
  /// - Throws: ``HistoryError/unreadableSource(path:reason:)`` when a read fails, or what
  ///   `body` throws.
  static func readChunks(
    of descriptor: Int32, path: String, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    do {
      try FileDescriptor(rawValue: descriptor).readChunks(path: path, body)
    } catch let error as FileError where error.operation == "read" && error.path == path {
      throw HistoryError.unreadableSource(path: path, reason: "\(error.code)")
    }
  }

  /// Flushes a file's contents to the disk.
  static func sync(_ descriptor: Int32, path: String) throws {
    do {
      try FileDescriptor(rawValue: descriptor).sync(path: path)
    } catch {
      throw self.error(error)
    }
  }

  /// Flushes a directory's entries (a rename into it) to the disk.
  static func syncDirectory(_ path: String) throws {
    do {
      try FileDescriptor.syncDirectory(atPath: path)
    } catch {
      throw self.error(error)
    }
  }

  /// Renames `source` to `destination`, replacing it.
  static func rename(_ source: String, to destination: String) throws {
    if Glibc.rename(source, destination) != 0 {
      throw error(errno, path: destination, operation: "rename")
    }
  }

  /// Removes a file; a file already gone is not an error.
  static func remove(_ path: String) {
    _ = unlink(path)
  }

  /// The size of the file at `path`, or `nil` when there is none.
  static func size(of path: String) -> Int64? {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : nil
  }

  /// The size of the file open as `descriptor`.
  static func size(of descriptor: Int32, path: String) throws -> Int64 {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw HistoryError.unreadableSource(path: path, reason: String(cString: strerror(errno)))
    }
    return Int64(status.st_size)
  }
}
