extension FileDescriptor {
  /// Writes every byte of `bytes` (swift-system's `writeAll`: interrupted and short writes are
  /// retried).
  ///
  /// - Parameter waitingForRoom: For a descriptor someone else left non-blocking (a caller's
  ///   standard output): wait in `poll(2)` while it is full (`EAGAIN`) instead of failing. Never
  ///   on a thread that must not block.
  /// - Throws: `Errno` when a write fails; what was written before stays written.
  public func writeAll(from bytes: UnsafeRawBufferPointer, waitingForRoom: Bool = false)
    throws(Errno)
  {
    guard waitingForRoom else {
      _ = try Errno.catching { try writeAll(bytes) }
      return
    }
    var offset = 0
    while offset < bytes.count {
      do {
        offset += try Errno.catching {
          try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
      } catch .wouldBlock {
        try wait(for: .writable)
      }
    }
  }
}
