import FerrySystem
import FerryTestSupport
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Running converter programs. A few tests choose `/bin/sh -c` as the program to act out a
/// misbehaving converter; Ferry itself never runs a shell.
@Suite(.timeLimit(.minutes(1))) struct CommandConverterTests {
  func converter(
    _ command: [String], timeLimit: Duration = CommandConverter.defaultTimeLimit,
    maximumOutputBytes: Int = CommandConverter.defaultMaximumOutputBytes
  ) throws -> CommandConverter {
    try CommandConverter(
      from: .utf8PlainText, to: .html, command: command, timeLimit: timeLimit,
      maximumOutputBytes: maximumOutputBytes)
  }

  /// Runs `converter` on `payload`, returning its output or its error and the process ID.
  ///
  /// A run that has not finished after 30 s is recorded as an issue and abandoned, so a
  /// deadlock fails the test instead of hanging the test run.
  func run(_ converter: CommandConverter, _ payload: PasteboardPayload)
    async -> (Result<Data, any Error>, pid: Int32?)
  {
    let spawned = SpawnedProcess()
    let task = Task {
      try await converter.run(payload, from: .utf8PlainText, to: .html) { pid in
        spawned.id.withLock { $0 = pid }
      }.data()
    }
    do {
      let output = try await TimeLimit.value(of: task, within: .seconds(30)) { StuckRun() }
      return (.success(output), spawned.id.withLock { $0 })
    } catch {
      if error is StuckRun { Issue.record("the run did not finish within 30 s: a deadlock?") }
      return (.failure(error), spawned.id.withLock { $0 })
    }
  }

  final class SpawnedProcess: Sendable {
    let id = TrackedMutex<Int32?>(nil)
  }

  struct StuckRun: Error {}

  func commandError(_ result: Result<Data, any Error>) -> CommandConverterError? {
    guard case .failure(let error) = result else {
      Issue.record(
        "expected the command to fail; it printed \(String(describing: try? result.get()))")
      return nil
    }
    guard let commandError = error as? CommandConverterError else {
      Issue.record("expected a CommandConverterError, got \(error)")
      return nil
    }
    return commandError
  }

  // MARK: Success

  @Test func programFoundInPATHTransformsItsInput() async throws {
    let upper = try converter(["tr", "a-z", "A-Z"])
    #expect(upper.command[0].hasPrefix("/") && upper.command[0].hasSuffix("/tr"))
    let (result, pid) = await run(upper, .data(Data("hello, world\n".utf8)))
    #expect(utf8Text(try result.get()) == "HELLO, WORLD\n")
    #expect(processIsGone(try #require(pid)))
  }

  @Test func absoluteProgramPath() async throws {
    let rev = try #require(CommandConverter.resolveExecutable("rev"))
    let (result, _) = await run(try converter([rev]), .data(Data("abc\nxyz\n".utf8)))
    #expect(utf8Text(try result.get()) == "cba\nzyx\n")
  }

  @Test func filePayloadIsStreamedWhole() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let url = scratch.directory.appendingPathComponent("big")
    let size = 5 * 1024 * 1024 + 7
    try Data(repeating: 0x61, count: size).write(to: url)
    let (result, _) = await run(try converter(["wc", "-c"]), .file(url))
    #expect(utf8Text(try result.get()).trimmingCharacters(in: .whitespacesAndNewlines) == "\(size)")
  }

  @Test func outputUpToTheLimitIsKept() async throws {
    let head = try converter(["head", "-c", "3000000", "/dev/zero"], maximumOutputBytes: 3_000_000)
    let (result, _) = await run(head, .data(Data()))
    #expect(try result.get() == Data(count: 3_000_000))
  }

  @Test func programLearnsTheTypesFromItsEnvironment() async throws {
    let env = try converter(["printenv", "FERRY_SOURCE_TYPE", "FERRY_TARGET_TYPE"])
    let (result, _) = await run(env, .data(Data()))
    #expect(utf8Text(try result.get()) == "public.utf8-plain-text\npublic.html\n")
  }

  // MARK: Failure

  @Test func nonZeroExitQuotesTheFirstLineOfStandardError() async throws {
    let failing = try converter([
      "/bin/sh", "-c",
      "cat >/dev/null; echo '  ' >&2; echo 'bad input: line 3' >&2; echo more >&2; exit 3",
    ])
    let (result, pid) = await run(failing, .data(Data("x".utf8)))
    let error = try #require(commandError(result))
    #expect(error.reason == .exited(status: 3))
    #expect(error.standardError == "bad input: line 3")
    #expect(error.description == "/bin/sh exited with status 3: bad input: line 3")
    #expect(error.processID == pid)
    #expect(processIsGone(try #require(pid)))
  }

  @Test func longErrorLineIsCut() async throws {
    let long = String(repeating: "x", count: 5000)
    let (result, _) = await run(
      try converter(["/bin/sh", "-c", "echo \(long) >&2; exit 1"]), .data(Data()))
    let error = try #require(commandError(result))
    #expect(error.standardError == String(repeating: "x", count: 300) + "…")
  }

  @Test func deathBySignalIsReported() async throws {
    let (result, _) = await run(try converter(["/bin/sh", "-c", "kill -TERM $$"]), .data(Data()))
    let error = try #require(commandError(result))
    #expect(error.reason == .signalled(SIGTERM))
    #expect(error.description.hasPrefix("/bin/sh was killed by signal \(SIGTERM)"))
  }

  @Test func hangPastTheLimitIsKilledAndReaped() async throws {
    let sleeper = try converter(["/bin/sleep", "30"], timeLimit: .milliseconds(500))
    let start = ContinuousClock.now
    let (result, pid) = await run(sleeper, .data(Data("ignored".utf8)))
    let elapsed = ContinuousClock.now - start
    let error = try #require(commandError(result))
    #expect(error.reason == .timedOut(.milliseconds(500)))
    #expect(error.description.hasSuffix("ran longer than 0.5 s and was killed"))
    #expect(elapsed >= .milliseconds(500), "never before its limit (took \(elapsed))")
    #expect(error.processID == pid)
    #expect(processIsGone(try #require(pid)))
  }

  @Test func hangingGrandchildIsKilledWithItsGroup() async throws {
    // The shell prints its child's ID, then waits for it.
    let script = "sleep 30 & echo $! >&2; wait"
    let hang = try converter(["/bin/sh", "-c", script], timeLimit: .milliseconds(500))
    let (result, pid) = await run(hang, .data(Data()))
    let error = try #require(commandError(result))
    #expect(error.reason == .timedOut(.milliseconds(500)))
    #expect(processIsGone(try #require(pid)))
    let grandchild = try #require(Int32(error.standardError))
    // Not our child: its new parent reaps it, or leaves a zombie; either way it is dead.
    #expect(await Deadline.wait(for: .seconds(10)) { processIsDead(grandchild) })
  }

  @Test func tooMuchOutputIsKilledAndReaped() async throws {
    let yes = try converter(["yes"], maximumOutputBytes: 1000)
    let (result, pid) = await run(yes, .data(Data()))
    let error = try #require(commandError(result))
    #expect(error.reason == .outputTooLarge(limit: 1000))
    #expect(error.description.hasSuffix("/yes printed more than 1000 bytes and was killed"))
    #expect(processIsGone(try #require(pid)))
  }

  @Test func oneByteOverTheLimitIsTooMuch() async throws {
    let head = try converter(["head", "-c", "1001", "/dev/zero"], maximumOutputBytes: 1000)
    let (result, _) = await run(head, .data(Data()))
    #expect(commandError(result)?.reason == .outputTooLarge(limit: 1000))
  }

  @Test func programThatNeverReadsItsLargeInputCannotStallUs() async throws {
    // 8 MiB does not fit a pipe: a writer that waited for the program to read would hang.
    let big = Data(repeating: 0x78, count: 8 * 1024 * 1024)
    let (printed, _) = await run(try converter(["printf", "done"]), .data(big))
    #expect(utf8Text(try printed.get()) == "done")
    // Runs a while with its input pipe full, then prints and exits.
    let slow = try converter(["/bin/sh", "-c", "sleep 0.3; echo late"])
    let (late, _) = await run(slow, .data(big))
    #expect(utf8Text(try late.get()) == "late\n")
  }

  @Test func largeInputThroughAFilterComesOutWhole() async throws {
    // Input and output both overflow their pipes: writing all input before reading any output
    // would deadlock with the filter.
    var big = Data()
    for index in 0..<(8 * 1024 * 1024 / 64) {
      big.append(
        contentsOf: "line \(index) of a long text, written to test the pipes .....\n".utf8.prefix(
          64))
    }
    let (result, _) = await run(try converter(["tr", "a-z", "A-Z"]), .data(big))
    let output = try result.get()
    #expect(output.count == big.count)
    #expect(output == Data(String(decoding: big, as: UTF8.self).uppercased().utf8))
  }

  @Test func programThatWritesBeforeReadingCannotDeadlockUs() async throws {
    let big = Data(repeating: 0x61, count: 4 * 1024 * 1024)
    let chatty = try converter(["/bin/sh", "-c", "head -c 1000000 /dev/zero; cat"])
    let (result, _) = await run(chatty, .data(big))
    let output = try result.get()
    #expect(output.count == 1_000_000 + big.count)
    #expect(output.prefix(1_000_000) == Data(count: 1_000_000))
    #expect(output.suffix(big.count) == big)
  }

  @Test func programThatNeverReadsALargeFileCannotStallUs() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let url = scratch.directory.appendingPathComponent("big")
    try Data(repeating: 0x61, count: 12 * 1024 * 1024).write(to: url)
    let (result, pid) = await run(try converter(["true"]), .file(url))
    #expect(try result.get().isEmpty)
    #expect(processIsGone(try #require(pid)))
  }

  @Test func programThatNeverReadsAndHangsStillTimesOut() async throws {
    let big = Data(repeating: 0x78, count: 8 * 1024 * 1024)
    let sleeper = try converter(["/bin/sleep", "30"], timeLimit: .milliseconds(300))
    let (result, pid) = await run(sleeper, .data(big))
    // Ended by its limit: a wait for the program to read its input, or to end, would not be.
    #expect(commandError(result)?.reason == .timedOut(.milliseconds(300)))
    #expect(processIsGone(try #require(pid)))
  }

  @Test func cancellingTheTaskKillsAndReapsTheProgram() async throws {
    // A program that never ends by itself: only the cancellation can end it.
    let sleeper = try converter(["/bin/sleep", "infinity"])
    let (spawns, continuation) = AsyncStream<Int32>.makeStream()
    let task = Task {
      try await sleeper.run(.data(Data()), from: .utf8PlainText, to: .html) { pid in
        continuation.yield(pid)
      }
    }
    var iterator = spawns.makeAsyncIterator()
    let pid = try #require(await iterator.next())
    task.cancel()
    let killed = await Deadline.wait(for: .seconds(30)) { processIsGone(pid) }
    #expect(killed, "the cancellation killed and reaped the program")
    guard killed else {
      kill(pid, SIGKILL)  // so that the task ends, however the converter waits
      return
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func programThatCannotBeExecutedFailsToLaunch() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let script = try scratch.write("#!/nonexistent/interpreter\n", to: "broken", executable: true)
    let (result, pid) = await run(try converter([script]), .data(Data()))
    let error = try #require(commandError(result))
    guard case .launchFailed(let reason) = error.reason else {
      Issue.record("expected a launch failure, got \(error)")
      return
    }
    #expect(reason == "posix_spawn: No such file or directory")
    #expect(error.description == "cannot start \(script): posix_spawn: No such file or directory")
    #expect(pid == nil)
  }

  @Test func missingInputFileIsReported() async throws {
    let missing = URL(fileURLWithPath: "/nonexistent/ferry-input")
    let (result, pid) = await run(try converter(["cat"]), .file(missing))
    let error = try #require(commandError(result))
    guard case .inputUnreadable(let reason) = error.reason else {
      Issue.record("expected an unreadable input, got \(error)")
      return
    }
    #expect(reason.contains("/nonexistent/ferry-input"))
    #expect(pid == nil)
  }

  @Test(arguments: ["no-such-program-for-ferry", "/nonexistent/tool", "./relative/tool", "/tmp"])
  func programThatDoesNotResolveIsRefusedUpFront(program: String) {
    #expect(throws: CommandConverterError.self) { try converter([program]) }
    #expect((try? converter([program])) == nil)
  }

  @Test func refusalSaysWhatWasNotFound() {
    let error = #expect(throws: CommandConverterError.self) {
      try converter(["no-such-program-for-ferry"])
    }
    #expect(error?.reason == .executableNotFound)
    #expect(error?.description == "cannot find the program no-such-program-for-ferry in PATH")
  }

  @Test func searchPathSkipsRelativeEntries() {
    #expect(CommandConverter.resolveExecutable("sh", searchPath: "bin:.:/nonexistent") == nil)
    #expect(CommandConverter.resolveExecutable("sh", searchPath: "bin:/bin") == "/bin/sh")
  }
}
