import Foundation
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// CPU time spent so far, read from the scheduler's own account
/// (`/proc/PID/task/TID/schedstat`, nanoseconds on a CPU): precise to the nanosecond where
/// `/proc/PID/stat` counts 10 ms ticks, and readable for another process (Xvfb, an xclip
/// owner) while it runs.
enum CPUTime {
  /// Every thread of process `pid` together, in seconds; 0 once it has gone.
  static func process(_ pid: pid_t) -> Double {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { $0 + task("/proc/\(pid)/task/\($1)/schedstat") }
  }

  /// The thread `tid` of this process, in seconds.
  static func thread(_ tid: pid_t) -> Double {
    task("/proc/self/task/\(tid)/schedstat")
  }

  /// The thread ID of `display`'s X thread, where everything Xlib does for it runs.
  static func xThreadID(of display: X11Display) async throws -> pid_t {
    try await display.xThread.perform { _ in
      // `/proc/thread-self` links to `PID/task/TID` of the thread that reads it.
      let link =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
      return pid_t(link.split(separator: "/").last.map(String.init) ?? "") ?? 0
    }
  }

  private static func task(_ path: String) -> Double {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let first = text.split(separator: " ").first, let nanoseconds = Double(first)
    else { return 0 }
    return nanoseconds / 1e9
  }
}
