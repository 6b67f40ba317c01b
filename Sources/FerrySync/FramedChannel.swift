import FerryProtocol
import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Ferry's frames over a pair of byte streams — an `ssh` child's pipes, standard input and
/// output, a socket pair in tests: sends from any thread, one frame at a time, and receives on
/// one reader thread.
///
/// Making one ignores `SIGPIPE` in the process, once: a pipe whose reader went away (an ssh
/// that exited) is an `EPIPE` for the link that wrote to it, never a signal that ends the
/// process.
public final class FramedChannel: @unchecked Sendable {
  /// Where frames come from.
  public let input: FileDescriptor
  /// Where frames go.
  public let output: FileDescriptor
  private let writing = TrackedMutex(Counters())
  // Read by the one reader thread only.
  private var decoder = FrameDecoder()
  private var buffer = [UInt8](repeating: 0, count: 256 << 10)

  private struct Counters {
    var sent = 0
    var closed = false
  }

  /// A channel reading `input` and writing `output` (the same descriptor for a socket).
  public init(input: FileDescriptor, output: FileDescriptor) {
    self.input = input
    self.output = output
    _ = Self.ignoresBrokenPipes
  }

  private static let ignoresBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// Bytes sent so far.
  public var bytesSent: Int { writing.withLock { $0.sent } }

  /// Sends `frames` in order, with nothing of another sender's between them.
  ///
  /// - Throws: ``SyncLinkError/io(_:)`` when the other end is gone.
  public func send(_ frames: [Frame]) throws(SyncLinkError) {
    var bytes: [UInt8] = []
    for frame in frames { bytes += frame.encoded() }
    let failure: Errno? = writing.withLock { counters in
      guard !counters.closed else { return Errno.badFileDescriptor }
      let failure = bytes.withUnsafeBytes { raw -> Errno? in
        do throws(Errno) {
          try output.writeAll(from: raw, waitingForRoom: true)
          return nil
        } catch {
          return error
        }
      }
      if failure == nil { counters.sent += bytes.count }
      return failure
    }
    if let failure { throw .io("writing to the link failed: \(failure)") }
  }

  /// Sends one message.
  public func send(_ message: SyncMessage) throws(SyncLinkError) { try send([message.frame]) }

  /// The next frame; `nil` at the end of the stream.
  ///
  /// - Throws: ``SyncLinkError``: `protocolViolation` for bytes that are no frame, `io`.
  public func receive() throws(SyncLinkError) -> Frame? {
    while true {
      do {
        if let frame = try decoder.nextFrame() { return frame }
      } catch {
        throw .protocolViolation("\(error)")
      }
      let count = try readSome()
      if count == 0 {
        guard decoder.bufferedByteCount == 0 else {
          throw .closed("the link ended in the middle of a frame")
        }
        return nil
      }
      buffer.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
  }

  /// The other end's first frame: its hello, or an ERROR frame saying why it cannot go on.
  /// Bytes before it — what a login script printed — are the error
  /// ``SyncLinkError/bytesBeforeHello(_:)``.
  ///
  /// - Parameter deadline: When to give up waiting (`nil`: never): a remote that never says
  ///   anything — a login waiting for input — is a failure, not a link stuck in `connecting`.
  /// - Returns: The hello; `nil` when the stream ends before any byte came.
  /// - Throws: ``SyncLinkError``: `bytesBeforeHello`, `remote` (the ERROR frame's message),
  ///   `closed` when the deadline passed, `io`.
  public func receiveHello(until deadline: ContinuousClock.Instant? = nil) throws(SyncLinkError)
    -> SyncMessage.Hello?
  {
    var pending: [UInt8] = []
    while true {
      var start = 0
      while start + Frame.headerSize + 1 <= pending.count {
        let length = pending[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        let kind = pending[start + 4]
        let plausible =
          (kind == Frame.Kind.event.rawValue || kind == Frame.Kind.error.rawValue)
          && pending[start + 5] == UInt8(ascii: "{") && length >= 3
          && length <= FrameLimits.maxJSONBody + 1
        guard plausible else {
          start += 1
          continue
        }
        guard start + 4 + length <= pending.count else { break }  // wait for the rest
        let frame = Frame(
          kind: Frame.Kind(rawValue: kind)!, body: Array(pending[start + 5..<start + 4 + length]))
        let first: Result<SyncMessage.Hello, SyncLinkError>? = Self.firstFrame(frame)
        guard let first else {
          start += 1
          continue
        }
        if start > 0 { throw .bytesBeforeHello(start) }
        let hello = try first.get()
        decoder.feed(pending[(start + 4 + length)...])
        return hello
      }
      guard pending.count < FrameLimits.maxJSONBody * 2 else {
        throw .bytesBeforeHello(pending.count)
      }
      if let deadline {
        let ready = (try? input.wait(for: .readable, until: deadline)) ?? .readable
        if ready.isEmpty {
          throw .closed(
            pending.isEmpty
              ? "the remote said nothing after the connection (a login waiting for input?)"
              : "the remote printed \(pending.count) bytes and then nothing (a login waiting for input?)"
          )
        }
      }
      let count = try readSome()
      if count == 0 {
        if pending.isEmpty { return nil }
        throw .bytesBeforeHello(pending.count)
      }
      pending += buffer[..<count]
    }
  }

  private static func firstFrame(_ frame: Frame) -> Result<SyncMessage.Hello, SyncLinkError>? {
    if frame.kind == .error {
      guard let body = try? frame.decodeJSON(ErrorBody.self) else { return nil }
      return .failure(.remote(body.message))
    }
    guard case .hello(let hello) = try? SyncMessage(frame: frame) else { return nil }
    return .success(hello)
  }

  private func readSome() throws(SyncLinkError) -> Int {
    let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, Errno> in
      do throws(Errno) {
        return .success(try input.readWaiting(into: raw))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let count): return count
    case .failure(.connectionReset): return 0
    case .failure(let error): throw .io("reading the link failed: \(error)")
    }
  }

  /// Stops sending, and tells the other end no more comes (closes the output; shuts a socket
  /// down both ways, which ends a read on it).
  public func close() {
    writing.withLock { counters in
      guard !counters.closed else { return }
      counters.closed = true
      if input == output {
        _ = shutdown(output.rawValue, Int32(SHUT_RDWR))
      } else {
        try? output.close()
      }
    }
  }
}
