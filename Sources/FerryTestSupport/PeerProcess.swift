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
    /// The status of a peer whose end could not be seen in time.
    public static let stillRunning: Int32 = -1
    /// The exit status, or ``stillRunning``.
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  }

  /// The peer's process.
  public let process: TestChild
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
  ///   - inputFile: A file read as standard input instead of `input`, never loaded whole.
  ///   - outputFile: A file standard output is written to (created or truncated) instead of
  ///     being captured: for payloads too large to hold in memory twice.
  /// - Throws: ``PeerUnavailable`` when the program is not installed.
  public init(
    _ arguments: [String], display: String?, input: Data? = nil,
    environment: [String: String] = [:],
    inputFile: URL? = nil, outputFile: URL? = nil
  ) throws {
    guard let executable = Peers.path(of: arguments[0]) else {
      throw PeerUnavailable(program: arguments[0])
    }
    var env = ProcessInfo.processInfo.environment
    if let display { env["DISPLAY"] = display } else { env.removeValue(forKey: "DISPLAY") }
    env.merge(environment) { $1 }
    var outputHandle: FileHandle?
    if let outputFile {
      guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputFile.path])
      }
      outputHandle = try FileHandle(forWritingTo: outputFile)
    }
    let inputHandle = try inputFile.map { try FileHandle(forReadingFrom: $0) }
    let stdinPipe = inputHandle == nil ? input.map { _ in Pipe() } : nil
    let (stdoutPipe, stderrPipe) = (Pipe(), Pipe())
    let standardInput = (inputHandle ?? stdinPipe?.fileHandleForReading).map {
      TestChild.Stream.descriptor($0.fileDescriptor)
    }
    let started = Swift.Result {
      try TestChild.start(
        path: executable, arguments: Array(arguments.dropFirst()), environment: env,
        standardInput: standardInput ?? .nullDevice,
        standardOutput: .descriptor(
          (outputHandle ?? stdoutPipe.fileHandleForWriting).fileDescriptor),
        standardError: .descriptor(stderrPipe.fileHandleForWriting.fileDescriptor))
    }
    // The child's ends: once the child has them, only the child may hold them, so that a
    // reader here sees the end of its output when it ends.
    try? outputHandle?.close()
    try? inputHandle?.close()
    try? stdoutPipe.fileHandleForWriting.close()
    try? stderrPipe.fileHandleForWriting.close()
    try? stdinPipe?.fileHandleForReading.close()
    process = try started.get()
    if outputHandle == nil {
      drain(stdoutPipe.fileHandleForReading) { self.stdoutData.append($0) }
    } else {
      try? stdoutPipe.fileHandleForReading.close()
    }
    drain(stderrPipe.fileHandleForReading) { self.stderrData.append($0) }
    if let stdinPipe, let input {
      Thread {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: input)
        try? stdinPipe.fileHandleForWriting.close()
      }.start()
    }
  }

  /// Reads `handle` to its end on a thread of its own. Not on a Dispatch global queue: on
  /// Linux those threads also run Swift concurrency's tasks, one per core, and a peer that
  /// blocks them in read(2) starves the code under test (a long-lived peer, such as the Xvfb
  /// keeper, would hold them for the whole test run).
  private func drain(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
    readers.enter()
    Thread {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        self.collected.lock()
        append(chunk)
        self.collected.unlock()
      }
      self.readers.leave()
    }.start()
  }

  /// The process id.
  public var pid: Int32 { process.processIdentifier }

  /// The standard output so far.
  public var outputSoFar: String {
    collected.lock()
    defer { collected.unlock() }
    return String(decoding: stdoutData, as: UTF8.self)
  }

  /// The standard error so far.
  public var errorSoFar: String {
    collected.lock()
    defer { collected.unlock() }
    return String(decoding: stderrData, as: UTF8.self)
  }

  /// Waits until the output contains `text`, or the deadline passes.
  @discardableResult
  @available(
    *, noasync,
    message: "blocks a thread of the concurrency pool; call it inside DetachedThread.run"
  )
  public func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
    Deadline.wait(for: timeout) { outputSoFar.contains(text) || !process.isRunning }
      && outputSoFar.contains(text)
  }

  /// Waits for the process to end, killing its process group with SIGKILL after `timeout`.
  ///
  /// Every peer leads a process group of its own (``TestChild``), so the group holds what the
  /// peer started: the `xclip -o` of an `sh -c "xclip -o | wc -c"` included.
  /// Killing only the shell would leave that xclip waiting on an owner forever, holding the
  /// output pipe open, and the test waiting on the pipe with it.
  ///
  /// Never blocks for long: past the deadline the result says so, with status
  /// ``Result/stillRunning``.
  @available(
    *, noasync,
    message: "blocks a thread of the concurrency pool; call it inside DetachedThread.run"
  )
  public func finish(timeout: Duration = .seconds(20)) -> Result {
    if !Deadline.wait(for: timeout, { !process.isRunning }) {
      Glibc.kill(-process.processIdentifier, SIGKILL)
    }
    let ended = Deadline.wait(for: .seconds(10)) { !process.isRunning }
    // A child the peer left behind on purpose (xclip -i serving from the background) may
    // still hold the pipes: take what arrived rather than wait for its end.
    _ = readers.wait(timeout: .now() + .seconds(ended ? 5 : 0))
    collected.lock()
    defer { collected.unlock() }
    return Result(
      status: ended ? process.terminationStatus : Result.stillRunning, stdout: stdoutData,
      stderr: stderrData)
  }

  /// Sends `signal` to the peer and everything it started (its process group), and reaps it.
  ///
  /// Available from async code for a `defer`, which cannot await: a peer ends within moments
  /// of SIGTERM, so the thread is held only that long. Elsewhere async code awaits
  /// ``stopped(signal:)``.
  public func kill(signal: Int32 = SIGTERM) -> Result {
    if process.isRunning { Glibc.kill(-process.processIdentifier, signal) }
    return finish(timeout: .seconds(10))
  }

  /// Runs a peer to completion.
  @available(
    *, noasync,
    message: "blocks a thread of the concurrency pool; call it inside DetachedThread.run"
  )
  public static func run(
    _ arguments: [String], display: String?, input: Data? = nil, timeout: Duration = .seconds(20),
    environment: [String: String] = [:], inputFile: URL? = nil, outputFile: URL? = nil
  ) throws -> Result {
    try PeerProcess(
      arguments, display: display, input: input, environment: environment, inputFile: inputFile,
      outputFile: outputFile
    ).finish(timeout: timeout)
  }
}
