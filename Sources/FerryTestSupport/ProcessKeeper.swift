import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Ends every process a test process started when the test process ends, however it ends:
/// a pass, a failed `#require`, a crash, or a SIGKILL from a runner's timeout.
///
/// Cleanup in `deinit` or `defer` runs only on a normal exit, and `PR_SET_PDEATHSIG` fires
/// when the *thread* that spawned a child ends (peers are spawned from short-lived threads),
/// so neither will do. Instead one keeper per test process, `awk`, reads the process groups
/// to end from a pipe only the test process holds; the pipe's end of file is the test
/// process's end, and the keeper then sends each group SIGTERM and, half a second later,
/// SIGKILL. Foundation starts every child as the leader of a group of its own, so the group
/// holds what the child started too (the `xclip` of an `sh -c "xclip -o | wc"`).
public enum ProcessKeeper {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var keeper: (process: Process, input: Pipe)?
  nonisolated(unsafe) private static var failed = false

  /// The awk program: remembers each group number it reads, ends them all at end of file.
  static let program = """
    /^[0-9]+$/ { groups[$0] = 1 }
    END {
      list = ""
      for (group in groups) list = list " -" group
      if (list != "") system("/bin/kill -TERM --" list " 2>/dev/null; sleep 0.5; /bin/kill -KILL --" list " 2>/dev/null")
    }
    """

  /// Has the process group led by `pid` ended with this test process.
  public static func keep(groupOf pid: Int32) {
    guard pid > 0 else { return }
    lock.lock()
    defer { lock.unlock() }
    guard let input = startedKeeper()?.input else { return }
    try? input.fileHandleForWriting.write(contentsOf: Data("\(pid)\n".utf8))
  }

  /// The keeper's process id, started on first use (`nil` when awk cannot be started).
  public static var keeperIdentifier: Int32? {
    lock.lock()
    defer { lock.unlock() }
    return startedKeeper()?.process.processIdentifier
  }

  private static func startedKeeper() -> (process: Process, input: Pipe)? {
    if let keeper { return keeper }
    if failed { return nil }
    let process = Process()
    let input = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/awk")
    process.arguments = [program]
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.spawnUnblocked()
    } catch {
      failed = true
      return nil
    }
    // Only this process may hold the writing end, or the keeper would never see its end.
    _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
    keeper = (process, input)
    return keeper
  }
}
