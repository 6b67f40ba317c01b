#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Splits a byte stream into ``Frame``s, however the bytes arrive.
///
/// The decoder is a value-type state machine with no I/O: feed it bytes as they come (a
/// frame may arrive in many pieces, or many frames in one), then take the frames it
/// completed. A length or kind that breaks the protocol is reported as soon as its bytes are
/// in — before the body is buffered — and the decoder stays failed: a stream cannot be
/// resynchronized after a bad frame.
///
/// ```swift
/// var decoder = FrameDecoder()
/// decoder.feed(bytesFromTheSocket)
/// while let frame = try decoder.nextFrame() {
///   handle(frame)
/// }
/// ```
///
/// Readers that own the socket can read straight into the decoder's storage with
/// ``read(atMost:_:)``, saving a copy.
public struct FrameDecoder: Sendable {
  /// Where the decoder is in the stream.
  enum State: Hashable, Sendable {
    /// Waiting for the 4-byte length and the kind byte of the next frame.
    case header
    /// The header is in; waiting for `bodyCount` bytes of body.
    case body(kind: Frame.Kind, bodyCount: Int)
    /// The stream broke the protocol; every later call reports this.
    case failed(FrameError)
  }

  private(set) var state: State = .header
  /// Bytes received and not yet handed out, at `storage[start..<end]`.
  private var storage: [UInt8] = []
  private var start = 0
  private var end = 0
  /// How much the next read from a socket should ask for: small at first, so that a short
  /// answer costs neither a large allocation nor its page faults, doubling while reads fill
  /// what they asked for.
  public private(set) var suggestedReadSize = 16 << 10
  /// The most ``suggestedReadSize`` grows to.
  static let largestReadSize = 256 << 10

  /// Creates a decoder at the start of a stream.
  public init() {}

  /// How many bytes the decoder holds that belong to frames not yet complete.
  public var bufferedByteCount: Int { end - start }

  /// Whether the decoder is between frames with nothing buffered: a stream that ends here
  /// ended cleanly.
  public var isAtFrameBoundary: Bool {
    if case .header = state { return start == end }
    return false
  }

  /// Appends bytes received from the stream.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    _ = read(atMost: bytes.count) { free in
      free.copyMemory(from: bytes)
      return bytes.count
    }
  }

  /// Appends bytes received from the stream.
  public mutating func feed(_ bytes: some Sequence<UInt8>) {
    let array = Array(bytes)
    array.withUnsafeBytes { feed($0) }
  }

  /// Lets `fill` write up to `maximum` bytes straight into the decoder's storage and keeps
  /// the count it returns — a `read(2)` into the decoder, without a copy.
  ///
  /// - Parameters:
  ///   - maximum: The most bytes `fill` may write.
  ///   - fill: Writes bytes at the start of the buffer it gets and returns how many; zero or
  ///     a negative count adds nothing.
  /// - Returns: What `fill` returned.
  public mutating func read<E: Error>(
    atMost maximum: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(E) -> Int
  ) throws(E) -> Int {
    makeRoom(for: maximum)
    let free = end..<end + maximum
    let result = storage.withUnsafeMutableBytes { raw in
      Result { () throws(E) -> Int in
        try fill(UnsafeMutableRawBufferPointer(rebasing: raw[free]))
      }
    }
    let written = try result.get()
    if written > 0 { end += min(written, maximum) }
    if written >= maximum, maximum >= suggestedReadSize {
      suggestedReadSize = min(suggestedReadSize * 2, Self.largestReadSize)
    }
    return written
  }

  /// The next complete frame, or `nil` until more bytes are fed.
  ///
  /// - Throws: ``FrameError`` when the stream breaks the protocol: a length of zero or past
  ///   ``FrameLimits/maxFrameLength``, an unknown kind, a body larger than its kind allows,
  ///   an END with a body. Every later call throws the same error.
  public mutating func nextFrame() throws(FrameError) -> Frame? {
    while true {
      switch state {
      case .failed(let error):
        throw error
      case .header:
        // The length alone can be wrong (zero, too large): say so before the kind arrives.
        guard end - start >= 4 else { return nil }
        let length = storage[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        if let error = Self.check(length: length) { try fail(error) }
        guard end - start >= Frame.headerSize else { return nil }
        let kindByte = storage[start + 4]
        if let error = Self.check(length: length, kindByte: kindByte) { try fail(error) }
        start += Frame.headerSize
        state = .body(kind: Frame.Kind(rawValue: kindByte)!, bodyCount: length - 1)
      case .body(let kind, let bodyCount):
        guard end - start >= bodyCount else { return nil }
        let from = start
        // An empty body is `[]`: `Array(unsafeUninitializedCapacity: 0)` stores its count
        // of 0 into the runtime's one shared empty-array object, a write from every thread
        // that decodes an END frame (ThreadSanitizer reported it as a data race).
        let body =
          bodyCount == 0
          ? []
          : [UInt8](unsafeUninitializedCapacity: bodyCount) { target, count in
            storage.withUnsafeBytes { source in
              UnsafeMutableRawBufferPointer(target).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: source[from..<from + bodyCount]))
            }
            count = bodyCount
          }
        start += bodyCount
        state = .header
        if start == end {
          start = 0
          end = 0
        }
        return Frame(kind: kind, body: body)
      }
    }
  }

  /// Frees the storage when no byte is buffered, so that a connection waiting between frames
  /// holds no buffer; the next bytes allocate it again.
  public mutating func releaseStorageIfEmpty() {
    guard start == end, !storage.isEmpty else { return }
    storage = []
    start = 0
    end = 0
  }

  /// Enters the failed state for good.
  private mutating func fail(_ error: FrameError) throws(FrameError) -> Never {
    state = .failed(error)
    storage = []
    start = 0
    end = 0
    throw error
  }

  /// The error a length field announces by itself, if any.
  ///
  /// - Parameter length: The length field: the kind byte plus the body.
  public static func check(length: Int) -> FrameError? {
    if length == 0 { return .zeroLength }
    if length > FrameLimits.maxFrameLength {
      return .tooLarge(kind: nil, bodyCount: length - 1, limit: FrameLimits.maxFrameLength - 1)
    }
    return nil
  }

  /// The error a frame header announces, if any.
  ///
  /// - Parameters:
  ///   - length: The length field: the kind byte plus the body.
  ///   - kindByte: The kind byte.
  public static func check(length: Int, kindByte: UInt8) -> FrameError? {
    if let error = check(length: length) { return error }
    guard let kind = Frame.Kind(rawValue: kindByte) else { return .unknownKind(kindByte) }
    let bodyCount = length - 1
    if kind == .end, bodyCount > 0 { return .endWithBody(bodyCount) }
    let limit = FrameLimits.maxBody(for: kind)
    if bodyCount > limit { return .tooLarge(kind: kind, bodyCount: bodyCount, limit: limit) }
    return nil
  }

  /// Makes `count` bytes of free space after `end`, moving the buffered bytes to the front
  /// when that is enough, else growing the storage.
  ///
  /// Growing copies only the buffered bytes and clears the rest with `memset`: a per-element
  /// loop here ran for every connection's first read, and dominated an unoptimized build.
  private mutating func makeRoom(for count: Int) {
    if storage.count - end >= count { return }
    let buffered = end - start
    if start > 0 {
      storage.withUnsafeMutableBytes { raw in
        let base = raw.baseAddress!
        base.copyMemory(from: base + start, byteCount: buffered)
      }
      start = 0
      end = buffered
    }
    guard storage.count - end < count else { return }
    let wanted = max(end + count, storage.count * 2, 4096)
    let old = storage
    storage = [UInt8](unsafeUninitializedCapacity: wanted) { target, initialized in
      let base = UnsafeMutableRawPointer(target.baseAddress!)
      old.withUnsafeBytes { source in
        if buffered > 0 { base.copyMemory(from: source.baseAddress!, byteCount: buffered) }
      }
      memset(base + buffered, 0, wanted - buffered)
      initialized = wanted
    }
  }
}
