import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One broker per user and display: an exclusive `flock(2)` on a file next to the socket,
/// holding the owner's pid. The kernel drops the lock when the process dies, however it dies.
final class InstanceLock {
  enum State: Equatable {
    case held
    case heldBy(Int32)
  }

  private let descriptor: Int32
  private let path: String
  private(set) var state: State

  init(path: String) throws {
    self.path = path
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw BrokerDaemonError.lock("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
      state = .held
      writePID()
    } else {
      state = .heldBy(Self.readPID(descriptor))
    }
  }

  /// Asks the holder to stop (SIGTERM) and takes the lock once it has.
  func takeOver(from pid: Int32) throws {
    if pid > 0 { kill(pid, SIGTERM) }
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        state = .held
        writePID()
        return
      }
      usleep(20_000)
    }
    throw BrokerDaemonError.lock("the broker with pid \(pid) did not stop within 10 s")
  }

  func release() {
    if state == .held { ftruncate(descriptor, 0) }
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  private func writePID() {
    ftruncate(descriptor, 0)
    let text = "\(getpid())\n"
    _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    fsync(descriptor)
  }

  private static func readPID(_ descriptor: Int32) -> Int32 {
    var buffer = [CChar](repeating: 0, count: 32)
    let count = pread(descriptor, &buffer, 31, 0)
    guard count > 0 else { return 0 }
    return Int32(String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }
}

/// Waiting for SIGTERM or SIGINT without a signal handler that runs arbitrary code.
enum SignalWaiter {
  static func waitForTermination() async {
    signal(SIGTERM, SIG_IGN)
    signal(SIGINT, SIG_IGN)
    signal(SIGPIPE, SIG_IGN)
    // Past a file-size limit a write fails with EFBIG, as on a full disk: that costs the one
    // copy being spooled, never the broker.
    signal(SIGXFSZ, SIG_IGN)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let queue = DispatchQueue(label: "ferry.signals")
      let once = SignalOnce(continuation)
      for number in [SIGTERM, SIGINT] {
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { once.fire() }
        source.resume()
        SignalOnce.keep(source)
      }
    }
  }
}

private final class SignalOnce: @unchecked Sendable {
  private var continuation: CheckedContinuation<Void, Never>?
  private let lock = NSLock()
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

  static func keep(_ source: any DispatchSourceSignal) { sources.append(source) }

  func fire() {
    lock.lock()
    let pending = continuation
    continuation = nil
    lock.unlock()
    pending?.resume()
  }
}
