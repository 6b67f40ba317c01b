import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading a descriptor that has no size to its end of file, with a bound: a pipe, a FIFO,
/// a terminal, a device.
///
/// ```swift
/// let input = try StreamInput.read(STDIN_FILENO, limit: 1 << 30).get()
/// ```
enum StreamInput {
  /// Why reading stopped before the end of file.
  enum Failure: Error, Equatable {
    /// More than the limit came, and the input had not ended.
    case tooLong
    /// `read(2)` (or the memory for its buffer) failed.
    case system(Errno)
  }

  /// Everything `descriptor` gives until its end of file, when that is at most `limit` bytes.
  ///
  /// Reads at most `limit + 1` bytes: the memory taken is bounded by the limit, however long
  /// the input goes on. The buffer grows as bytes arrive and becomes the `Data` uncopied;
  /// `expected` (a regular file's size) makes it the right size at once.
  static func read(_ descriptor: Int32, limit: Int, expected: Int = 0) -> Result<Data, Failure> {
    var capacity = min(max(64 << 10, expected + 1), limit + 1)
    guard var buffer = malloc(capacity) else { return .failure(.system(.noMemory)) }
    var count = 0
    reading: while true {
      if count == capacity {
        if capacity > limit {
          free(buffer)
          return .failure(.tooLong)
        }
        capacity = min(capacity * 2, limit + 1)
        guard let grown = realloc(buffer, capacity) else {
          free(buffer)
          return .failure(.system(.noMemory))
        }
        buffer = grown
      }
      let got: Int
      do throws(Errno) {
        got = try FileDescriptor(rawValue: descriptor).readWaiting(
          into: UnsafeMutableRawBufferPointer(start: buffer + count, count: capacity - count))
      } catch {
        free(buffer)
        return .failure(.system(error))
      }
      if got == 0 { break reading }
      count += got
    }
    if count > limit {
      free(buffer)
      return .failure(.tooLong)
    }
    return .success(Data(bytesNoCopy: buffer, count: count, deallocator: .free))
  }
}
