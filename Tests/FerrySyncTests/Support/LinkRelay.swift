import FerryProtocol
import FerrySync
import FerryTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A link between two sync engines with a relay in the middle: each engine has one end of a
/// socket pair, and a thread each way copies what one sends to the other, keeping a copy of
/// every frame (the transcript), waiting `delay` before each chunk it passes on, and stopping
/// both ways at ``cut()`` — a link that drops in the middle of whatever it carries.
final class LinkRelay: @unchecked Sendable {
  /// The left engine's end.
  let left: FramedChannel
  /// The right engine's end.
  let right: FramedChannel
  private let relayLeft: CInt
  private let relayRight: CInt
  private let delay: Duration
  private let lock = NSLock()
  private var leftDecoder = FrameDecoder()
  private var rightDecoder = FrameDecoder()
  private var directionsOpen = 2
  private var framesRight: [Frame] = []
  private var framesLeft: [Frame] = []
  private var bytesRight = 0

  /// A relay passing each chunk after `delay` (at most `chunk` bytes at a time).
  init(delay: Duration = .zero, chunk: Int = 64 << 10) throws {
    let (leftEngine, leftRelay) = try Self.socketPair()
    let (rightEngine, rightRelay) = try Self.socketPair()
    left = FramedChannel(
      input: FileDescriptor(rawValue: leftEngine), output: FileDescriptor(rawValue: leftEngine))
    right = FramedChannel(
      input: FileDescriptor(rawValue: rightEngine), output: FileDescriptor(rawValue: rightEngine))
    relayLeft = leftRelay
    relayRight = rightRelay
    self.delay = delay
    DetachedThread.start(name: "relay-right") { [self] in
      pass(from: leftRelay, to: rightRelay, chunk: chunk, rightward: true)
    }
    DetachedThread.start(name: "relay-left") { [self] in
      pass(from: rightRelay, to: leftRelay, chunk: chunk, rightward: false)
    }
  }

  /// Drops the link both ways: each engine reads the end of its stream.
  func cut() {
    // Under the lock, and only while the relay's ends are open: once closed, their numbers
    // may be another test's descriptors.
    lock.withLock {
      guard directionsOpen > 0 else { return }
      shutdown(relayLeft, CInt(SHUT_RDWR))
      shutdown(relayRight, CInt(SHUT_RDWR))
    }
  }

  /// The frames the left engine sent so far.
  var sentRightward: [Frame] { lock.withLock { framesRight } }
  /// The frames the right engine sent so far.
  var sentLeftward: [Frame] { lock.withLock { framesLeft } }
  /// The bytes the left engine sent so far.
  var bytesSentRightward: Int { lock.withLock { bytesRight } }

  /// The messages among `frames` (EVENT frames), decoded.
  static func messages(_ frames: [Frame]) -> [SyncMessage] {
    frames.compactMap { $0.kind == .event ? try? SyncMessage(frame: $0) : nil }
  }

  /// Every byte of the DATA frames among `frames`.
  static func payload(_ frames: [Frame]) -> Data {
    Data(frames.filter { $0.kind == .data }.flatMap(\.body))
  }

  private func pass(from source: CInt, to target: CInt, chunk: Int, rightward: Bool) {
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, chunk) }
      guard count > 0 else { break }
      record(buffer[..<count], rightward: rightward)
      if delay > .zero {
        var pause = timespec(
          tv_sec: Int(delay.components.seconds),
          tv_nsec: Int(delay.components.attoseconds / 1_000_000_000))
        nanosleep(&pause, nil)
      }
      var offset = 0
      while offset < count {
        let written = buffer[offset..<count].withUnsafeBytes {
          send(target, $0.baseAddress, count - offset, CInt(MSG_NOSIGNAL))
        }
        guard written > 0 else { break }
        offset += written
      }
      guard offset == count else { break }
    }
    shutdown(target, CInt(SHUT_WR))
    lock.withLock {
      directionsOpen -= 1
      if directionsOpen == 0 {
        close(relayLeft)
        close(relayRight)
      }
    }
  }

  private func record(_ bytes: ArraySlice<UInt8>, rightward: Bool) {
    lock.withLock {
      if rightward {
        bytesRight += bytes.count
        rightDecoder.feed(bytes)
        while let frame = try? rightDecoder.nextFrame() { framesRight.append(frame) }
      } else {
        leftDecoder.feed(bytes)
        while let frame = try? leftDecoder.nextFrame() { framesLeft.append(frame) }
      }
    }
  }

  private static func socketPair() throws -> (CInt, CInt) {
    var ends: [CInt] = [0, 0]
    guard
      socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
    else { throw Errno(rawValue: errno) }
    return (ends[0], ends[1])
  }
}
