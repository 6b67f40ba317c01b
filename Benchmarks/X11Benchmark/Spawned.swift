import FerrySystem
import FerryTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program the benchmark started, reaped with `wait4` so that its CPU time is known: the
/// readers (`xclip -o`) and the owners (`xclip -i`, `xsel -i`, Ferry's `--serve`).
///
/// The benchmark spawns directly (``ChildLaunch``), with no shell and no pipeline, so that
/// what is timed is the peer alone writing into the sink it was given.
struct Spawned {
  /// How a peer ended.
  struct Ending {
    /// The raw `wait4` status.
    var status: Int32
    /// User plus system CPU time over the peer's whole life, in seconds.
    var cpuSeconds: Double
    /// Whether the peer exited with status 0.
    var succeeded: Bool { status & 0x7f == 0 && (status >> 8) & 0xff == 0 }
  }

  let pid: pid_t

  /// Starts `arguments` (the program found on `PATH`) with `DISPLAY` set to `display`,
  /// standard input from `input` (or `/dev/null`) and standard output into `output`.
  init(_ arguments: [String], display: String, input: String? = nil, output: Int32) throws {
    guard let path = Peers.path(of: arguments[0]) else {
      throw BenchmarkError("\(arguments[0]) is not installed")
    }
    let launch = ChildLaunch(
      path: path, arguments: arguments,
      environment: ChildLaunch.environment(adding: ["DISPLAY": display]),
      descriptors: [
        .open(input ?? "/dev/null", as: 0, .readOnly),
        .duplicate(FileDescriptor(rawValue: output), as: 1),
        .open("/dev/null", as: 2, .writeOnly), .closeAll(from: 3),  // no X connection of ours leaks in
      ])
    pid = try launch.spawn().rawValue
  }

  /// Waits for the peer's end and reaps it.
  func wait() -> Ending {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return Ending(status: status, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
  }

  /// Ends the peer (`SIGKILL`) and reaps it.
  @discardableResult
  func kill() -> Ending {
    _ = Glibc.kill(pid, SIGKILL)
    return wait()
  }
}

/// A failure that ends the benchmark, with what went wrong.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
