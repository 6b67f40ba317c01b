import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program a test started: through ``ChildLaunch``, as the product code starts its
/// children, and in the shape of Foundation's `Process` that the tests use (running,
/// terminated, its status).
///
/// Every such child starts with no signal blocked and every signal at its default action:
/// tests start peers from Dispatch and Swift concurrency threads, which block nearly every
/// signal, and a peer that inherited that mask would ignore SIGTERM for its whole life. It
/// leads a process group of its own, so a signal to the group reaches what it started (the
/// `xclip` of an `sh -c "xclip -o | wc"`), and it inherits no descriptor but its standard
/// streams. A thread of its own waits for its end and reaps it.
///
/// ```swift
/// let xvfb = try TestChild.start(path: "/usr/bin/Xvfb", arguments: [":99"], kept: true)
/// xvfb.terminate()
/// xvfb.waitUntilExit()
/// ```
public final class TestChild: Sendable {
  /// Where one of the child's standard streams goes.
  public enum Stream: Sendable {
    /// `/dev/null`.
    case nullDevice
    /// This descriptor of the test process (not closed here).
    case descriptor(Int32)
  }

  /// The child's process ID.
  public let processIdentifier: Int32
  private let termination = TrackedMutex<Termination?>(nil)
  private let ended = DispatchSemaphore(value: 0)

  private init(_ child: ChildProcessID) {
    processIdentifier = child.rawValue
  }

  /// Starts `path` with `arguments` (not counting `argv[0]`, which is the path).
  ///
  /// - Parameters:
  ///   - environment: The whole environment; this process's when `nil`.
  ///   - kept: Have the child's group ended with the test process, however that ends
  ///     (``ProcessKeeper``).
  ///   - passing: Descriptors of this process the child gets as 3, 4, … in this order (not
  ///     closed here): listening sockets a compositor is told to use.
  /// - Throws: `Errno` when the program cannot be started.
  public static func start(
    path: String, arguments: [String] = [], environment: [String: String]? = nil,
    standardInput: Stream = .nullDevice, standardOutput: Stream = .nullDevice,
    standardError: Stream = .nullDevice, kept: Bool = true, passing: [Int32] = []
  ) throws -> TestChild {
    let descriptors = [standardInput, standardOutput, standardError].enumerated().map {
      number, stream in
      switch stream {
      case .nullDevice:
        ChildLaunch.DescriptorAction.open(
          "/dev/null", as: CInt(number), number == 0 ? .readOnly : .writeOnly)
      case .descriptor(let descriptor):
        ChildLaunch.DescriptorAction.duplicate(
          FileDescriptor(rawValue: descriptor), as: CInt(number))
      }
    }
    // Each passed descriptor is first copied above the numbers it is given as, so that no
    // duplication overwrites a descriptor another one is still to be taken from.
    let first = CInt(3)
    let sources = try passing.map { descriptor in
      let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, first + CInt(passing.count))
      guard copy >= 0 else { throw Errno(rawValue: errno) }
      return copy
    }
    defer { sources.forEach { _ = close($0) } }
    let passed = sources.enumerated().map { number, source in
      ChildLaunch.DescriptorAction.duplicate(
        FileDescriptor(rawValue: source), as: first + CInt(number))
    }
    let launch = ChildLaunch(
      path: path, arguments: [path] + arguments,
      environment: environment.map {
        $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      },
      descriptors: descriptors + passed + [.closeAll(from: first + CInt(passing.count))],
      group: .own)
    let child = try launch.spawn()
    let started = TestChild(child)
    Thread.detachNewThread {
      let ending = try? child.waitForExit()
      started.termination.withLock { $0 = ending ?? .exited(-1) }
      started.ended.signal()
    }
    if kept { ProcessKeeper.keep(groupOf: child.rawValue) }
    return started
  }

  /// Whether the child has not ended yet.
  public var isRunning: Bool { termination.withLock { $0 == nil } }

  /// How the child ended; `nil` while it runs.
  public var ending: Termination? { termination.withLock { $0 } }

  /// As Foundation's `Process`: the exit status, or the number of the signal that ended it.
  public var terminationStatus: Int32 {
    switch ending {
    case .exited(let status)?: status
    case .signalled(let signal)?: signal
    case nil: preconditionFailure("the child \(processIdentifier) is still running")
    }
  }

  /// Sends SIGTERM to the child (not its group), if it still runs.
  public func terminate() {
    if isRunning { kill(processIdentifier, SIGTERM) }
  }

  /// Blocks until the child has ended.
  public func waitUntilExit() {
    ended.wait()
    ended.signal()
  }
}
