#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// One `read(2)` of at most `buffer.count` bytes, as a reader of someone else's descriptor
  /// wants it: retried when interrupted, and waiting in `poll(2)` for bytes when the
  /// descriptor was left non-blocking (`EAGAIN`) instead of failing.
  ///
  /// ```swift
  /// let count = try FileDescriptor.standardInput.readWaiting(into: buffer)  // 0: end of file
  /// ```
  ///
  /// - Returns: How many bytes came; 0 at the end of the input.
  /// - Throws: `Errno` when the read fails.
  public func readWaiting(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    while true {
      do {
        return try Errno.catching { try read(into: buffer) }
      } catch .wouldBlock {
        try wait(for: .readable)
      }
    }
  }

  /// Reads until `buffer` is full or the input ends, retrying interrupted and short reads.
  ///
  /// - Returns: How many bytes came: `buffer.count`, or fewer at the end of the input.
  /// - Throws: `Errno` when a read fails (the bytes read before are in `buffer`).
  public func read(filling buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    var filled = 0
    while filled < buffer.count {
      let count = try Errno.catching {
        try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }

  /// Reads from `offset` (`pread(2)`, leaving the file position alone) until `buffer` is full
  /// or the file ends, retrying interrupted and short reads.
  ///
  /// - Returns: How many bytes came: `buffer.count`, or fewer at the end of the file.
  /// - Throws: `Errno` when a read fails.
  public func read(fromAbsoluteOffset offset: Int64, filling buffer: UnsafeMutableRawBufferPointer)
    throws(Errno) -> Int
  {
    var filled = 0
    while filled < buffer.count {
      let count = try Errno.catching {
        try read(
          fromAbsoluteOffset: offset + Int64(filled),
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }

  /// Everything the descriptor gives until its end (a file, a pipe, a terminal), in one
  /// allocation sized from `fstat(2)` when the size is known.
  ///
  /// - Throws: `Errno` when a read fails.
  public func readToEnd() throws(Errno) -> [UInt8] {
    let expected = (try? Stat(self)).map { Int($0.size) } ?? 0
    var bytes = [UInt8](repeating: 0, count: max(expected + 1, 64 << 10))
    var count = 0
    while true {
      if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
      let got = try bytes.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in
          try Errno.catching {
            try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
          }
        }
      }.get()
      if got == 0 { break }
      count += got
    }
    bytes.removeSubrange(count...)
    return bytes
  }
}
