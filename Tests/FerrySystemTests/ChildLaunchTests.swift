import FerrySystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct ChildLaunchTests {
  /// Runs `script` with `sh -c`, its standard output into a pipe; returns the output and how
  /// it ended.
  private func run(_ script: String, group: ChildLaunch.Group = .own, environment: [String]? = nil)
    throws
    -> (output: String, termination: Termination)
  {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    let child: ChildProcessID
    do {
      defer { try? writeEnd.close() }
      child = try ChildLaunch(
        path: "/bin/sh", arguments: ["sh", "-c", script], environment: environment,
        descriptors: [.open("/dev/null", as: 0, .readOnly), .duplicate(writeEnd, as: 1)],
        group: group
      ).spawn()
    }
    let output = try readEnd.readToEnd()
    return (String(decoding: output, as: UTF8.self), try child.waitForExit())
  }

  @Test func exitStatusAndOutput() throws {
    let (output, termination) = try run("echo hello; exit 7")
    #expect(output == "hello\n")
    #expect(termination == .exited(7))
  }

  @Test func aSignalEndsIt() throws {
    #expect(try run("kill -TERM $$").termination == .signalled(SIGTERM))
  }

  @Test func standardInputFromAPipe() throws {
    let (inputRead, inputWrite) = try FileDescriptor.closeOnExecPipe()
    let (outputRead, outputWrite) = try FileDescriptor.closeOnExecPipe()
    defer { try? outputRead.close() }
    let child = try ChildLaunch(
      path: "/bin/cat", arguments: ["cat"],
      descriptors: [.duplicate(inputRead, as: 0), .duplicate(outputWrite, as: 1)]
    ).spawn()
    try inputRead.close()
    try outputWrite.close()
    try inputWrite.writeAll(Array("through cat".utf8))
    try inputWrite.close()
    #expect(try outputRead.readToEnd() == Array("through cat".utf8))
    #expect(try child.waitForExit() == .exited(0))
  }

  @Test(arguments: [ChildLaunch.Group.inherited, .own, .ownSession])
  func groupAndSession(group: ChildLaunch.Group) throws {
    let child = try ChildLaunch(path: "/bin/sleep", arguments: ["sleep", "30"], group: group)
      .spawn()
    defer {
      try? child.send(SIGKILL)
      _ = try? child.waitForExit()
    }
    let pid = child.rawValue
    switch group {
    case .inherited:
      #expect(getpgid(pid) == getpgrp() && getsid(pid) == getsid(0))
    case .own:
      #expect(getpgid(pid) == pid && getsid(pid) == getsid(0))
    case .ownSession:
      #expect(getsid(pid) == pid && getpgid(pid) == pid)
    }
  }

  @Test func aSignalToTheGroupReachesWhatTheChildStarted() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    // The shell starts a sleep that holds the pipe, and waits for it.
    let child = try ChildLaunch(
      path: "/bin/sh", arguments: ["sh", "-c", "sleep 30; echo never"],
      descriptors: [.duplicate(writeEnd, as: 1)], group: .own
    ).spawn()
    try writeEnd.close()
    try child.sendToGroup(SIGKILL)
    #expect(try readEnd.readToEnd().isEmpty, "the sleep died too, closing the pipe")
    #expect(try child.waitForExit() == .signalled(SIGKILL))
  }

  @Test func signalsStartAtTheirDefaults() async {
    // In a process of its own (an exit test): what it changes — a signal ignored by the whole
    // process — must not reach the tests running beside it.
    await #expect(processExitsWith: .success) {
      exit(ChildLaunchTests.childStartsWithDefaultSignals() ? 0 : 1)
    }
  }

  /// In the exit test's process: blocks SIGTERM on this thread and ignores SIGUSR2 and a
  /// real-time signal in the process — posix_spawn alone would pass all three on — then
  /// checks what a child starts with.
  private static func childStartsWithDefaultSignals() -> Bool {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    signal(SIGUSR2, SIG_IGN)
    signal(realTimeSignal, SIG_IGN)
    guard let child = try? ChildLaunch(path: "/bin/sleep", arguments: ["sleep", "30"]).spawn()
    else { return false }
    defer {
      try? child.send(SIGKILL)
      _ = try? child.waitForExit()
    }
    // glibc's own signals (32 and 33) stay as its posix_spawn leaves them; no other one is
    // blocked or ignored.
    let glibc = bit(32) | bit(33)
    let (blockedMask, ignoredMask) = (
      signalMask("SigBlk", of: child), signalMask("SigIgn", of: child)
    )
    return blockedMask & bit(SIGTERM) == 0
      && ignoredMask & (bit(SIGUSR2) | bit(realTimeSignal)) == 0
      && blockedMask & ~glibc == 0 && ignoredMask & ~glibc == 0
  }

  @Test(arguments: [false, true])
  func closeAllLeavesOnlyWhatIsHandedOver(closing: Bool) throws {
    var leaked: [Int32] = [0, 0]
    #expect(pipe(&leaked) == 0)  // not close-on-exec
    defer { leaked.forEach { close($0) } }
    var descriptors: [ChildLaunch.DescriptorAction] = [.open("/dev/null", as: 0, .readOnly)]
    if closing { descriptors.append(.closeAll(from: 3)) }
    let child = try ChildLaunch(
      path: "/bin/sleep", arguments: ["sleep", "30"], descriptors: descriptors
    ).spawn()
    defer {
      try? child.send(SIGKILL)
      _ = try? child.waitForExit()
    }
    // Only the leaked pipe's ends are looked for: the program's loader may hold a descriptor
    // of its own for a moment (a library being mapped) right after the exec.
    let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.rawValue)/fd")
      .compactMap { Int32($0) }
    #expect(open.contains(leaked[0]) == !closing && open.contains(leaked[1]) == !closing, "\(open)")
    #expect(
      open.contains(0) && open.contains(1) && open.contains(2), "the standard streams stay: \(open)"
    )
  }

  @Test func theEnvironmentIsPassed() throws {
    let environment = ChildLaunch.environment(adding: ["FERRY_SYSTEM_TEST": "one", "PATH": "/bin"])
    #expect(
      environment.filter { $0.hasPrefix("PATH=") } == ["PATH=/bin"], "replaced, not added twice")
    #expect(try run("echo $FERRY_SYSTEM_TEST", environment: environment).output == "one\n")
    #expect(try run("echo ${FERRY_SYSTEM_TEST:-none}", environment: ["A=b"]).output == "none\n")
  }

  @Test func aMissingProgramIsAnErrno() {
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try ChildLaunch(path: "/nonexistent/program", arguments: ["program"]).spawn()
    }
  }

  @Test func waitingWithoutReapingKeepsTheStatus() throws {
    let child = try ChildLaunch(path: "/bin/sh", arguments: ["sh", "-c", "exit 3"]).spawn()
    try child.waitForExitWithoutReaping()
    #expect(kill(child.rawValue, 0) == 0, "a zombie: the ID is still ours")
    #expect(try child.reapIfEnded() == .exited(3))
    #expect(throws: Errno.noChildProcess) { try child.reapIfEnded() }
  }

  @Test func reapIfEndedDoesNotWait() throws {
    let child = try ChildLaunch(path: "/bin/sleep", arguments: ["sleep", "30"]).spawn()
    #expect(try child.reapIfEnded() == nil)
    try child.send(SIGKILL)
    #expect(try child.waitForExit() == .signalled(SIGKILL))
  }

  /// A line of `/proc/<pid>/status` (`SigBlk`, `SigIgn`) as a bit set.
  private static func signalMask(_ name: String, of child: ChildProcessID) -> UInt64 {
    let status =
      (try? String(contentsOfFile: "/proc/\(child.rawValue)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
    return UInt64(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
      ?? .max
  }

  private static func bit(_ signal: CInt) -> UInt64 { 1 << UInt64(signal - 1) }

  /// A real-time signal nobody here uses (glibc's SIGRTMIN is 34, SIGRTMAX 64).
  private static let realTimeSignal: CInt = 50
}
