/// Raw bytes reused from one use to the next, grown when a use needs more, and freed with
/// the buffer or on ``release()``.
///
/// The owner reads file chunks into one on the X thread (a buffer per chunk cost a mapping
/// and its page faults each time); a `TextTranscoder` writes its output into one, which goes
/// with the transcoder however its conversion ended (issue 17: one left after an error kept
/// its buffer for good).
public final class ReusableBuffer {
  private var storage: UnsafeMutableRawBufferPointer?

  /// An empty buffer; nothing is allocated before the first ``bytes(_:)``.
  public init() {}

  /// At least `count` bytes, valid until the next call or ``release()``.
  public func bytes(_ count: Int) -> UnsafeMutableRawBufferPointer {
    if let storage, storage.count >= count { return storage }
    storage?.deallocate()
    let fresh = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
    storage = fresh
    return fresh
  }

  /// Frees the bytes now rather than with the buffer.
  public func release() {
    storage?.deallocate()
    storage = nil
  }

  deinit { release() }
}
