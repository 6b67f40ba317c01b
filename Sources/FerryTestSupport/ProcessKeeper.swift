import FerrySystem
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
/// SIGKILL. ``TestChild`` starts every child as the leader of a group of its own, so the group
/// holds what the child started too (the `xclip` of an `sh -c "xclip -o | wc"`).
public enum ProcessKeeper {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var keeper: (process: TestChild, input: FileDescriptor)?
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
    _ = try? input.writeAll(Array("\(pid)\n".utf8))
  }

  /// The keeper's process id, started on first use (`nil` when awk cannot be started).
  public static var keeperIdentifier: Int32? {
    lock.lock()
    defer { lock.unlock() }
    return startedKeeper()?.process.processIdentifier
  }

  private static func startedKeeper() -> (process: TestChild, input: FileDescriptor)? {
    if let keeper { return keeper }
    if failed { return nil }
    // Only this process may hold the writing end, or the keeper would never see its end: the
    // pipe is close-on-exec from the start.
    do {
      let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
      defer { try? readEnd.close() }
      do {
        let process = try TestChild.start(
          path: "/usr/bin/awk", arguments: [program], standardInput: .descriptor(readEnd.rawValue),
          kept: false)
        keeper = (process, writeEnd)
      } catch {
        try? writeEnd.close()
        throw error
      }
      return keeper
    } catch {
      failed = true
      return nil
    }
  }
}
