import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One run of an external program: spawned without a shell, fed, read, held to its limits
/// and always reaped.
///
/// How a run goes:
///
/// 1. `posix_spawn(3)` starts the program from an argument vector, with pipes as standard
///    input, output and error, every signal unblocked and at its default action, in a process
///    group of its own (``ChildLaunch``). Our ends of the pipes are close-on-exec, so no other
///    child inherits them.
/// 2. A supervisor thread runs one `poll(2)` loop that writes standard input (non-blocking,
///    a file in chunks, never whole), reads standard output up to the limit and standard
///    error up to ``Limits/errorBytes``, and waits for the deadline, for the program's exit
///    and for cancellation, all at once. A program that never reads its input therefore
///    cannot stall us: we go on reading while its input pipe is full. `SIGPIPE` is blocked on
///    that thread, so a program that exits without reading its input costs an `EPIPE`, not our
///    process.
/// 3. A reaper thread blocks in `waitid(…, WNOWAIT)` and reports the exit through a pipe in
///    the same loop; it never reaps, so the process ID stays ours until the supervisor reaps
///    it, and a `kill` can never reach a recycled ID.
/// 4. Past the deadline, past the output limit, or on cancellation, the supervisor sends
///    `SIGKILL` to the program and to its process group, waits for the exit, and reaps it.
///    After a normal exit it reads what is left in the pipes and reaps it.
///
/// No thread of the Swift concurrency pool ever blocks here.
enum ChildProcess {
  /// How long a run may take and how much it may print.
  struct Limits: Sendable {
    var time: Duration
    var outputBytes: Int
    /// How much of standard error is kept for the error message; the rest is read and
    /// dropped, so a chatty program cannot block on a full pipe.
    var errorBytes = 4096
  }

  /// What goes to the program's standard input.
  enum Input: Sendable {
    case data(Data)
    /// A file, streamed in chunks.
    case file(String)
  }

  /// How the program ended, from its wait status.
  enum Termination: Sendable, Hashable {
    case exited(Int32)
    case signalled(Int32)
    /// Someone else in the process collected the status.
    case unknown
  }

  /// Why the run stopped.
  enum Ending: Sendable, Hashable {
    case finished(Termination)
    case timedOut
    case outputTooLarge
    case cancelled
    /// Reading the input file failed.
    case inputFailed(Errno)
  }

  /// The result of a run. The process is reaped in every case.
  struct Outcome: Sendable {
    var processID: Int32
    var ending: Ending
    var output: Data
    var errorOutput: Data
  }

  /// Why a program could not be started.
  enum LaunchError: Error {
    /// The input file could not be opened.
    case inputUnopenable(path: String, Errno)
    /// A call of the launch failed (`pipe2`, `posix_spawn`).
    case failed(call: String, Errno)
  }

  /// Runs `executable` with `arguments` (the full vector, `argv[0]` included).
  ///
  /// - Parameters:
  ///   - environment: Variables to set on top of this process's environment.
  ///   - onSpawn: Called with the process ID as soon as the program runs.
  /// - Throws: ``LaunchError`` when the program cannot be started; `CancellationError` when
  ///   the task is cancelled before it starts.
  static func run(
    executable: String, arguments: [String], environment: [String: String] = [:],
    input: Input, limits: Limits, onSpawn: @Sendable (Int32) -> Void = { _ in }
  ) async throws -> Outcome {
    try Task.checkCancellation()
    var opened: [FileDescriptor] = []
    func closeOpened() { for descriptor in opened { try? descriptor.close() } }
    let inputFile: FileDescriptor?
    if case .file(let path) = input {
      do {
        inputFile = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
      } catch {
        throw LaunchError.inputUnopenable(path: path, error as? Errno ?? .ioError)
      }
      opened.append(inputFile!)
    } else {
      inputFile = nil
    }
    let pipes: [(readEnd: FileDescriptor, writeEnd: FileDescriptor)]
    do {
      pipes = try (0..<5).map { _ throws(LaunchError) in
        do throws(Errno) {
          let pipe = try FileDescriptor.closeOnExecPipe()
          opened += [pipe.readEnd, pipe.writeEnd]
          return pipe
        } catch {
          throw .failed(call: "pipe2", error)
        }
      }
    } catch {
      closeOpened()
      throw error
    }
    let (stdinPipe, stdoutPipe, stderrPipe, exitPipe, cancelPipe) =
      (pipes[0], pipes[1], pipes[2], pipes[3], pipes[4])
    for descriptor in [
      stdinPipe.writeEnd, stdoutPipe.readEnd, stderrPipe.readEnd, cancelPipe.writeEnd,
    ] {
      try? descriptor.setNonBlocking()
    }
    let launch = ChildLaunch(
      path: executable, arguments: arguments,
      environment: ChildLaunch.environment(adding: environment),
      descriptors: [
        .duplicate(stdinPipe.readEnd, as: 0), .duplicate(stdoutPipe.writeEnd, as: 1),
        .duplicate(stderrPipe.writeEnd, as: 2),
      ],
      group: .own)
    let child: ChildProcessID
    do {
      child = try await spawnRetryingWhileBusy(launch)
    } catch {
      closeOpened()
      throw error
    }
    for descriptor in [stdinPipe.readEnd, stdoutPipe.writeEnd, stderrPipe.writeEnd] {
      try? descriptor.close()
    }
    onSpawn(child.rawValue)

    let notifyExit = exitPipe.writeEnd
    let waitForExit: @Sendable () -> Void = {
      try? child.waitForExitWithoutReaping()
      _ = try? notifyExit.writeAll([UInt8(1)])
      try? notifyExit.close()
    }
    if !DetachedThread.start(name: "ferry-child-wait", waitForExit) {
      // No thread to wait with: end the child now, so that waiting here is short.
      try? child.send(SIGKILL)
      waitForExit()
    }

    let cancel = CancelSignal(cancelPipe.writeEnd)
    let plan = Supervisor.Plan(
      child: child, input: input, inputFile: inputFile, stdin: stdinPipe.writeEnd,
      stdout: stdoutPipe.readEnd, stderr: stderrPipe.readEnd, exit: exitPipe.readEnd,
      cancel: cancelPipe.readEnd, limits: limits)
    defer {
      // The write end first: a late cancellation must never write into a pipe with no reader.
      cancel.disarm()
      try? cancelPipe.readEnd.close()
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let supervise: @Sendable () -> Void = {
          continuation.resume(returning: Supervisor(plan).run())
        }
        if !DetachedThread.start(name: "ferry-child-io", supervise) { supervise() }
      }
    } onCancel: {
      cancel.fire()
    }
  }

  /// How often a spawn is tried when the program is busy being written.
  static let textBusyAttempts = 5

  /// ``ChildLaunch/spawn()``, tried again a few times on `ETXTBSY`: the program is open for
  /// writing, typically because another thread of this process is spawning while it holds a
  /// descriptor of a freshly written script, a window that closes with that spawn's `exec`.
  private static func spawnRetryingWhileBusy(_ launch: ChildLaunch) async throws -> ChildProcessID {
    var attempt = 1
    while true {
      do {
        return try launch.spawn()
      } catch .textFileBusy where attempt < textBusyAttempts {
        try? await Task.sleep(for: .milliseconds(10 * attempt), clock: .timerThread)
        attempt += 1
      } catch {
        throw LaunchError.failed(call: "posix_spawn", error)
      }
    }
  }
}

/// Wakes the supervisor's loop when the task is cancelled.
private final class CancelSignal: Sendable {
  private let writeEnd: TrackedMutex<FileDescriptor?>

  init(_ writeEnd: FileDescriptor) { self.writeEnd = TrackedMutex(writeEnd) }

  func fire() {
    writeEnd.withLock { descriptor in
      _ = try? descriptor?.writeAll([UInt8(1)])
    }
  }

  /// Closes the write end; later cancellations do nothing.
  func disarm() {
    writeEnd.withLock { descriptor in
      try? descriptor?.close()
      descriptor = nil
    }
  }
}
