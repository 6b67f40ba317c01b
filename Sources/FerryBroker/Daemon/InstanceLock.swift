import Dispatch
import FerrySystem
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// One broker per user and display: an exclusive `fcntl(2)` write lock on a file next to the
/// socket. The kernel drops the lock when the process dies, however it dies.
///
/// A second broker learns the holder's pid from the kernel (`F_GETLK`), not from the file:
/// the holder's pid is written there too, for people, but that write fails on a full runtime
/// directory or past a file-size limit (the file was left empty, and the second broker named
/// "pid 0").
///
/// A POSIX record lock is held by the process, not by the descriptor: it is dropped when the
/// process closes any descriptor of the file, so the file is opened once, and not inherited by
/// child processes.
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
      throw BrokerDaemonError.lock("cannot open \(path): \(Errno.last)")
    }
    state = .heldBy(0)
    // The holder can exit between a failed attempt and the question who holds the lock:
    // then the lock is free, and the next attempt takes it.
    for _ in 0..<100 {
      do throws(Errno) {
        try lock(F_WRLCK)
        state = .held
        writePID()
        return
      } catch .resourceTemporarilyUnavailable, .permissionDenied {
        // Held by another process.
      } catch {
        close(descriptor)
        throw BrokerDaemonError.lock("cannot lock \(path): \(error)")
      }
      if let holder = holder() {
        state = .heldBy(holder)
        return
      }
    }
  }

  /// Asks the holder to stop (SIGTERM) and takes the lock once it has.
  func takeOver(from pid: Int32) throws {
    if pid > 0 { kill(pid, SIGTERM) }
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      if (try? lock(F_WRLCK)) != nil {
        state = .held
        writePID()
        return
      }
      usleep(20_000)
    }
    throw BrokerDaemonError.previousBrokerStayed(
      "the broker with pid \(pid) did not stop within 10 s")
  }

  func release() {
    if state == .held {
      ftruncate(descriptor, 0)
      try? lock(F_UNLCK)
    }
    close(descriptor)
  }

  /// Sets (`F_WRLCK`) or drops (`F_UNLCK`) the lock on the whole file without waiting.
  ///
  /// - Throws: `EAGAIN` or `EACCES` when another process holds a conflicting lock.
  private func lock(_ type: Int32) throws(Errno) {
    var request = Self.wholeFile(type)
    _ = try Errno.retryingInterrupts { fcntl(descriptor, F_SETLK, &request) }
  }

  /// The pid of the process holding a lock that conflicts with ours, `nil` when none does.
  private func holder() -> Int32? {
    var request = Self.wholeFile(Int32(F_WRLCK))
    guard fcntl(descriptor, F_GETLK, &request) == 0 else { return Self.readPID(descriptor) }
    return request.l_type == Int16(F_UNLCK) ? nil : request.l_pid
  }

  private static func wholeFile(_ type: Int32) -> flock {
    var request = flock()
    request.l_type = Int16(type)
    request.l_whence = Int16(SEEK_SET)
    request.l_start = 0
    request.l_len = 0
    return request
  }

  /// Writes the pid for people (`cat …/display-0.sock.lock`); a failure here is harmless.
  private func writePID() {
    ftruncate(descriptor, 0)
    let text = "\(getpid())\n"
    _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
  }

  private static func readPID(_ descriptor: Int32) -> Int32 {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = pread(descriptor, &buffer, 31, 0)
    guard count > 0 else { return 0 }
    let line = String(decoding: buffer.prefix(count), as: UTF8.self).prefix { $0 != "\n" }
    return Int32(line.trimmingWhitespace()) ?? 0
  }
}

/// Waiting for SIGTERM or SIGINT without a signal handler that runs arbitrary code.
enum SignalWaiter {
  /// Makes a closed peer's SIGPIPE and a file-size limit's SIGXFSZ failed writes (`EPIPE`,
  /// `EFBIG`, as on a full disk) that cost one transfer, never the broker. Called before
  /// anything writes (``BrokerDaemon/prepareProcess()``), and again here.
  static func ignoreWriteSignals() {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
  }

  static func waitForTermination() async {
    ignoreWriteSignals()
    // Delivered through the sources below, not by the default action.
    signal(SIGTERM, SIG_IGN)
    signal(SIGINT, SIG_IGN)
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

private final class SignalOnce: Sendable {
  private let continuation: TrackedMutex<CheckedContinuation<Void, Never>?>
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = TrackedMutex(continuation)
  }

  static func keep(_ source: any DispatchSourceSignal) { sources.append(source) }

  func fire() {
    let pending = continuation.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }
    pending?.resume()
  }
}
