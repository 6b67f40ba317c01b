import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Descriptor-level file work that never holds a file's contents in memory.
enum FileIO {
  /// The chunk used when the kernel cannot copy for us.
  static let chunkSize = 1 << 20

  /// Writes every byte of `buffer`, retrying short writes and `EINTR`.
  static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) throws {
    do {
      try FileDescriptor(rawValue: descriptor).writeAll(from: buffer)
    } catch {
      throw PasteboardError.io("write: \(error)")
    }
  }

  /// Copies the file at `path` to `descriptor`: `sendfile(2)` where the kernel allows it,
  /// else 1 MiB reads and writes.
  static func copyContents(of path: String, to descriptor: Int32) throws {
    let source = try mapped { try FileDescriptor.open(atPath: path, .readOnly) }
    defer { try? source.close() }
    sending: while true {
      do {
        if try Errno.retryingInterrupts({ sendfile(descriptor, source.rawValue, nil, chunkSize) })
          == 0
        {
          return
        }
      } catch .invalidArgument, .noFunction {
        break sending
      } catch {
        throw PasteboardError.io("sendfile: \(error)")
      }
    }
    try mapped {
      try source.readChunks(path: path, chunkSize: chunkSize) { try writeAll($0, to: descriptor) }
    }
  }

  /// Copies the file at `source` to a new file at `destination` without reading it into
  /// memory, and flushes it to disk when `sync` is set.
  static func copyFile(_ source: String, to destination: String, sync: Bool) throws {
    let output = try mapped { try FileDescriptor.createExclusive(atPath: destination) }
    defer { try? output.close() }
    try copyContents(of: source, to: output.rawValue)
    if sync { try mapped { try output.sync(path: destination) } }
  }

  /// Writes `data` to a new file at `destination`, flushed to disk when `sync` is set.
  static func writeFile(_ data: Data, to destination: String, sync: Bool) throws {
    let output = try mapped { try FileDescriptor.createExclusive(atPath: destination) }
    defer { try? output.close() }
    try data.withUnsafeBytes { try writeAll($0, to: output.rawValue) }
    if sync { try mapped { try output.sync(path: destination) } }
  }

  /// Runs `body`, FerrySystem's file calls, turning their ``FileError`` into
  /// ``PasteboardError/io(_:)`` with the same message (`open /path: No such file or
  /// directory`); any other error passes through.
  static func mapped<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as FileError {
      throw PasteboardError.io(error.description)
    }
  }
}
