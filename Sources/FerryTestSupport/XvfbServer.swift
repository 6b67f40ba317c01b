import FerrySystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private X server for interop tests: its own Xvfb on a free display, never the caller's
/// `DISPLAY`.
///
/// ```swift
/// let xvfb = try XvfbServer.shared()
/// let peer = try PeerProcess(["xclip", "-o"], display: xvfb.name)
/// ```
///
/// One server is started per test process, on first use, and stopped when the process ends,
/// however it ends, by ``ProcessKeeper`` (peers a test left running lose their display and
/// exit too). The server runs with `-noreset`, so atoms survive between clients; `-terminate`
/// then does nothing, as it acts on a reset.
public final class XvfbServer: Sendable {
  /// The display name, such as `:57`.
  public let name: String
  /// The display number.
  public let number: Int
  let process: TestChild

  /// The server's process id.
  public var processIdentifier: Int32 { process.processIdentifier }

  nonisolated(unsafe) private static var servers: [String: Result<XvfbServer, any Error>] = [:]
  /// Guards `servers`; never held while a server starts.
  private static let cacheLock = NSLock()
  /// Held while a server starts: two servers started at once would pick the same number.
  private static let startLock = NSLock()

  /// The server of this test process, started on first use.
  ///
  /// - Throws: ``PeerUnavailable`` when Xvfb is not installed, or ``XvfbError``.
  public static func shared() throws -> XvfbServer {
    try dedicated("shared")
  }

  /// A server of its own for the suites that name `purpose`, started on first use: suites
  /// that each run in order but all use `CLIPBOARD` must not share a display, since Swift
  /// Testing runs different suites at the same time.
  ///
  /// Blocks while the server starts: from async code (a suite's `init`), call the `async`
  /// form, which does not hold one of Swift concurrency's few threads meanwhile (the code
  /// under test, a broker in the test process included, runs on them).
  ///
  /// - Throws: ``PeerUnavailable`` when Xvfb is not installed, or ``XvfbError``.
  public static func dedicated(_ purpose: String) throws -> XvfbServer {
    startLock.lock()
    defer { startLock.unlock() }
    if let existing = cacheLock.withLock({ servers[purpose] }) { return try existing.get() }
    let result = Result { try XvfbServer() }
    cacheLock.withLock { servers[purpose] = result }
    return try result.get()
  }

  /// The server for `purpose`, started on a thread of its own the first time.
  ///
  /// - Throws: ``PeerUnavailable`` when Xvfb is not installed, or ``XvfbError``.
  public static func dedicated(_ purpose: String) async throws -> XvfbServer {
    if let existing = cacheLock.withLock({ servers[purpose] }) { return try existing.get() }
    return try await DetachedThread.run { try dedicated(purpose) }
  }

  /// A server for one test that ends it itself (to see a display go away): never shared.
  /// Call ``stop()`` when done; the end of the test process stops it otherwise.
  ///
  /// - Throws: ``PeerUnavailable`` when Xvfb is not installed, or ``XvfbError``.
  public static func disposable() throws -> XvfbServer {
    startLock.lock()
    defer { startLock.unlock() }
    return try XvfbServer()
  }

  /// The `async` form of ``disposable()``, started on a thread of its own.
  ///
  /// - Throws: ``PeerUnavailable`` when Xvfb is not installed, or ``XvfbError``.
  public static func disposable() async throws -> XvfbServer {
    try await DetachedThread.run { try disposable() }
  }

  /// Stops the server and waits until it has ended: its clients lose the display.
  public func stop() {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  /// Stops the server, then starts another on the same display number: its clients lose the
  /// display, and one that connects again finds a new server there with nothing of the old
  /// (a nested session's X server, or Xwayland, started again).
  ///
  /// - Throws: ``XvfbError`` when the number cannot be had again within the server's start.
  public func restarted() throws -> XvfbServer {
    stop()
    return try XvfbServer(candidates: [number])
  }

  private init(candidates: [Int] = XvfbServer.candidateNumbers()) throws {
    guard let executable = Peers.path(of: "Xvfb") else { throw PeerUnavailable(program: "Xvfb") }
    var started: (TestChild, Int)?
    for number in candidates {
      let process = try TestChild.start(
        path: executable,
        arguments: [
          ":\(number)", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-terminate",
          "-noreset",
        ])
      let ready = Deadline.wait(for: .seconds(10)) {
        !process.isRunning || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      }
      // Wait until the server answers. The socket may be another test process's server on
      // the same number, which ours then loses to and exits: the next number, then.
      let answered =
        ready
        && Deadline.wait(for: .seconds(10)) {
          (try? PeerProcess.run(["xdpyinfo"], display: ":\(number)", timeout: .seconds(5)).status)
            == 0
        }
      let running = process.isRunning
      if answered && running {
        started = (process, number)
        break
      }
      if running { process.terminate() }
      process.waitUntilExit()
      if ready && !answered && running {
        throw XvfbError(message: "Xvfb on :\(number) did not answer")
      }
    }
    guard let (process, number) = started else {
      throw XvfbError(message: "no free display for Xvfb")
    }
    self.process = process
    self.number = number
    self.name = ":\(number)"
  }

  private static func candidateNumbers() -> [Int] {
    let base = 40 + Int(getpid() % 200)
    return (0..<40).map { base + $0 }.filter { number in
      !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
    }
  }
}

/// Xvfb could not be started.
public struct XvfbError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
