import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A peer program run on the test's display, with its output captured.
///
/// ```swift
/// let result = try PeerProcess.run(["xclip", "-o", "-selection", "clipboard"], display: xvfb.name)
/// #expect(result.stdout == Data("hello".utf8))
/// ```
public final class PeerProcess: @unchecked Sendable {
  /// What a finished peer left.
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  }

  public let process = Process()
  private let stdoutPipe = Pipe()
  private let stderrPipe = Pipe()
  private let collected = NSLock()
  private var stdoutData = Data()
  private var stderrData = Data()
  private let readers = DispatchGroup()

  /// Starts `arguments` (program first, found on `PATH`) with `DISPLAY` set.
  ///
  /// - Parameters:
  ///   - arguments: The program and its arguments.
  ///   - display: The display name.
  ///   - input: Bytes for standard input, or `nil` for none.
  ///   - environment: Extra environment variables.
  /// - Throws: ``PeerUnavailable`` when the program is not installed.
  public init(
    _ arguments: [String], display: String?, input: Data? = nil, environment: [String: String] = [:]
  ) throws {
    guard let executable = Peers.path(of: arguments[0]) else { throw PeerUnavailable(program: arguments[0]) }
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(arguments.dropFirst())
    var env = ProcessInfo.processInfo.environment
    if let display { env["DISPLAY"] = display } else { env.removeValue(forKey: "DISPLAY") }
    env.merge(environment) { $1 }
    process.environment = env
    process.standardOutput = stdoutPipe
    process.standardError = stderrPipe
    let stdinPipe = input.map { _ in Pipe() }
    process.standardInput = stdinPipe ?? FileHandle.nullDevice
    try process.run()
    drain(stdoutPipe.fileHandleForReading) { self.stdoutData.append($0) }
    drain(stderrPipe.fileHandleForReading) { self.stderrData.append($0) }
    if let stdinPipe, let input {
      DispatchQueue.global().async {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: input)
        try? stdinPipe.fileHandleForWriting.close()
      }
    }
  }

  private func drain(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
    readers.enter()
    DispatchQueue.global().async {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        self.collected.lock()
        append(chunk)
        self.collected.unlock()
      }
      self.readers.leave()
    }
  }

  /// The process id.
  public var pid: Int32 { process.processIdentifier }

  /// The standard output so far.
  public var outputSoFar: String {
    collected.lock()
    defer { collected.unlock() }
    return String(decoding: stdoutData, as: UTF8.self)
  }

  /// Waits until the output contains `text`, or the deadline passes.
  @discardableResult
  public func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
    Deadline.wait(for: timeout) { outputSoFar.contains(text) || !process.isRunning } && outputSoFar.contains(text)
  }

  /// Waits for the process to end, killing it with SIGKILL after `timeout`.
  public func finish(timeout: Duration = .seconds(20)) -> Result {
    if !Deadline.wait(for: timeout, { !process.isRunning }) {
      Glibc.kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    readers.wait()
    collected.lock()
    defer { collected.unlock() }
    return Result(status: process.terminationStatus, stdout: stdoutData, stderr: stderrData)
  }

  /// Sends `signal` and reaps the process.
  public func kill(signal: Int32 = SIGTERM) -> Result {
    if process.isRunning { Glibc.kill(process.processIdentifier, signal) }
    return finish(timeout: .seconds(10))
  }

  /// Runs a peer to completion.
  public static func run(
    _ arguments: [String], display: String?, input: Data? = nil, timeout: Duration = .seconds(20),
    environment: [String: String] = [:]
  ) throws -> Result {
    try PeerProcess(arguments, display: display, input: input, environment: environment).finish(timeout: timeout)
  }
}
