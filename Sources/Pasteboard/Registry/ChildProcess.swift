import DetachedThreads
import FoundationEssentials
import Synchronization

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
///    group of its own. Our ends of the pipes are close-on-exec, so no other child inherits
///    them.
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
    /// Reading the input file failed with this `errno`.
    case inputFailed(Int32)
  }

  /// The result of a run. The process is reaped in every case.
  struct Outcome: Sendable {
    var processID: Int32
    var ending: Ending
    var output: Data
    var errorOutput: Data
  }

  /// Why a program could not be started; `call` is the failing call, `code` its `errno`.
  struct LaunchError: Error {
    var call: String
    var code: Int32
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
    var opened: [Int32] = []
    func closeOpened() { for descriptor in opened { close(descriptor) } }
    let inputFile: Int32?
    if case .file(let path) = input {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw LaunchError(call: "open \(path)", code: errno) }
      opened.append(descriptor)
      inputFile = descriptor
    } else {
      inputFile = nil
    }
    let pipes: [(read: Int32, write: Int32)]
    do {
      pipes = try (0..<5).map { _ in
        let pipe = try makePipe()
        opened += [pipe.read, pipe.write]
        return pipe
      }
    } catch {
      closeOpened()
      throw error
    }
    let (stdinPipe, stdoutPipe, stderrPipe, exitPipe, cancelPipe) =
      (pipes[0], pipes[1], pipes[2], pipes[3], pipes[4])
    for descriptor in [stdinPipe.write, stdoutPipe.read, stderrPipe.read, cancelPipe.write] {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    let pid: pid_t
    do {
      pid = try await spawnRetryingWhileBusy(
        executable, arguments: arguments, environment: environment,
        stdio: (stdinPipe.read, stdoutPipe.write, stderrPipe.write))
    } catch {
      closeOpened()
      throw error
    }
    for descriptor in [stdinPipe.read, stdoutPipe.write, stderrPipe.write] { close(descriptor) }
    onSpawn(pid)

    let notifyExit = exitPipe.write
    let waitForExit: @Sendable () -> Void = {
      var info = siginfo_t()
      while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
      var byte: UInt8 = 1
      _ = write(notifyExit, &byte, 1)
      close(notifyExit)
    }
    if !DetachedThread.start(name: "ferry-child-wait", waitForExit) {
      // No thread to wait with: end the child now, so that waiting here is short.
      kill(pid, SIGKILL)
      waitForExit()
    }

    let cancel = CancelSignal(cancelPipe.write)
    let plan = Supervisor.Plan(
      pid: pid, input: input, inputFile: inputFile, stdin: stdinPipe.write,
      stdout: stdoutPipe.read, stderr: stderrPipe.read, exit: exitPipe.read,
      cancel: cancelPipe.read, limits: limits)
    defer {
      // The write end first: a late cancellation must never write into a pipe with no reader.
      cancel.disarm()
      close(cancelPipe.read)
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let supervise: @Sendable () -> Void = { continuation.resume(returning: Supervisor(plan).run()) }
        if !DetachedThread.start(name: "ferry-child-io", supervise) { supervise() }
      }
    } onCancel: {
      cancel.fire()
    }
  }

  /// How often a spawn is tried when the program is busy being written.
  static let textBusyAttempts = 5

  /// `pipe2(2)`, which the C library has but its Swift module does not show.
  private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32)? =
    dlsym(nil, "pipe2").map {
      unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
    }

  /// Where `pipe2` is missing (a fully static build, say), serializes `pipe` + `fcntl` with
  /// our spawns, so our own runs at least never leak a pipe into each other's programs.
  private static let pipeLock = Mutex(())

  /// A close-on-exec pipe whose ends are above the standard descriptors, so `dup2` onto
  /// 0, 1 or 2 in the child always makes a fresh descriptor.
  private static func makePipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    if let pipe2 {
      guard pipe2(&ends, O_CLOEXEC) == 0 else { throw LaunchError(call: "pipe2", code: errno) }
    } else {
      let result = pipeLock.withLock { _ in
        guard pipe(&ends) == 0 else { return errno }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return 0
      }
      guard result == 0 else { throw LaunchError(call: "pipe", code: result) }
    }
    for index in ends.indices where ends[index] <= 2 {
      let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
      close(ends[index])
      ends[index] = moved
    }
    guard ends.allSatisfy({ $0 >= 0 }) else {
      let code = errno
      for end in ends where end >= 0 { close(end) }
      throw LaunchError(call: "fcntl", code: code)
    }
    return (ends[0], ends[1])
  }

  /// ``spawn(_:arguments:environment:stdio:)``, tried again a few times on `ETXTBSY`: the
  /// program is open for writing, typically because another thread of this process is
  /// spawning while it holds a descriptor of a freshly written script, a window that closes
  /// with that spawn's `exec`.
  private static func spawnRetryingWhileBusy(
    _ executable: String, arguments: [String], environment: [String: String],
    stdio: (Int32, Int32, Int32)
  ) async throws -> pid_t {
    var attempt = 1
    while true {
      do {
        if pipe2 != nil {
          return try spawn(executable, arguments: arguments, environment: environment, stdio: stdio)
        }
        return try pipeLock.withLock { _ in
          try spawn(executable, arguments: arguments, environment: environment, stdio: stdio)
        }
      } catch let error as LaunchError where error.code == ETXTBSY && attempt < textBusyAttempts {
        try? await Task.sleep(for: .milliseconds(10 * attempt))
        attempt += 1
      }
    }
  }

  private static func spawn(
    _ executable: String, arguments: [String], environment: [String: String],
    stdio: (Int32, Int32, Int32)
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdio.0, 0)
    posix_spawn_file_actions_adddup2(&actions, stdio.1, 1)
    posix_spawn_file_actions_adddup2(&actions, stdio.2, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    // The host may ignore SIGPIPE (servers do); the program gets every default back.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in 1..<Int32(32) where signal != SIGKILL && signal != SIGSTOP {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environmentStrings(adding: environment).map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard result == 0 else { throw LaunchError(call: "posix_spawn", code: result) }
    return pid
  }

  /// This process's environment as `NAME=value` strings, with `extra` set on top.
  private static func environmentStrings(adding extra: [String: String]) -> [String] {
    var strings: [String] = []
    var entry = environ
    while let pointer = entry.pointee {
      let string = String(cString: pointer)
      let name = string.prefix { $0 != "=" }
      if extra[String(name)] == nil { strings.append(string) }
      entry += 1
    }
    return strings + extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  }
}

/// Wakes the supervisor's loop when the task is cancelled.
private final class CancelSignal: Sendable {
  private let writeEnd: Mutex<Int32?>

  init(_ writeEnd: Int32) { self.writeEnd = Mutex(writeEnd) }

  func fire() {
    writeEnd.withLock { descriptor in
      guard let descriptor else { return }
      var byte: UInt8 = 1
      _ = write(descriptor, &byte, 1)
    }
  }

  /// Closes the write end; later cancellations do nothing.
  func disarm() {
    writeEnd.withLock { descriptor in
      if let open = descriptor { close(open) }
      descriptor = nil
    }
  }
}
