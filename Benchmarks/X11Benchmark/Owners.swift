import FerryTestSupport
import Foundation
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// Who owns `CLIPBOARD` in a measurement: always a process of its own, as the broker's owner
/// is, so that every owner's CPU time is read the same way.
enum Owner: Hashable {
  /// Ferry's owner (`SelectionOwnerService`): `executable --serve …` (``ServeMode``), this
  /// benchmark or another build of it (`--compare`), shown as `label`; sending INCR chunks
  /// of `chunk` bytes when given.
  case ferry(executable: String, label: String, chunk: Int? = nil)
  /// `xclip -i -quiet`, which holds its input in memory and serves it in chunks of about
  /// 1 MiB (a quarter of the server's maximum request).
  case xclip
  /// `xsel -i -b -n`, measured with the short text only.
  case xsel

  var name: String {
    switch self {
    case .ferry(_, let label, _): label
    case .xclip: "xclip"
    case .xsel: "xsel"
    }
  }

  var isFerry: Bool {
    if case .ferry = self { true } else { false }
  }

  /// The command that serves `served`, and the file it reads as standard input.
  func command(serving served: Served) throws -> (arguments: [String], input: String?) {
    switch (self, served) {
    case (.ferry(let executable, _, let chunk), .file(let url, _)):
      ([executable, ServeMode.flag, "file", url.path] + (chunk.map { [String($0)] } ?? []), nil)
    case (.ferry(let executable, _, _), .memory(let url, _)):
      ([executable, ServeMode.flag, "memory", url.path], nil)
    case (.ferry(let executable, _, _), .text(let url)):
      ([executable, ServeMode.flag, "text", url.path], nil)
    case (.xclip, .file(let url, let target)), (.xclip, .memory(let url, let target)):
      (["xclip", "-i", "-quiet", "-selection", "clipboard", "-t", target], url.path)
    case (.xclip, .text(let url)): (["xclip", "-i", "-quiet", "-selection", "clipboard"], url.path)
    case (.xsel, .text(let url)): (["xsel", "-i", "-b", "-n"], url.path)
    case (.xsel, .file), (.xsel, .memory):
      throw BenchmarkError("xsel is not measured serving 100 MiB")
    }
  }
}

/// What an owner serves: 100 MiB from a file (Ferry serves its spooled copies from files;
/// xclip reads it into memory first, whatever it is told), the same read into memory before
/// owning, or a short text.
enum Served {
  case file(URL, target: String)
  case memory(URL, target: String)
  case text(URL)
}

/// An owner serving: its process, and how to end it.
struct RunningOwner {
  let owner: Owner
  let process: Spawned

  /// Starts `owner` serving `served` on the display; returns once the server names an owner
  /// of `CLIPBOARD` (nobody owns it before: see ``stop(probe:)``) and it has answered
  /// `TARGETS`, untimed, as a clipboard manager asks after every owner change.
  ///
  /// Ferry's owner makes the item's target table on its first request, and the first time in
  /// its life loads the MIME database (14–21 ms): a daemon's once-only cost, which a new
  /// owner process per measurement would otherwise pay inside every timed read.
  static func start(_ owner: Owner, serving served: Served, probe: X11Display, display: String)
    async throws -> RunningOwner
  {
    let (arguments, input) = try owner.command(serving: served)
    let process = try Spawned(arguments, display: display, input: input, output: Sink.null)
    let owned = await Deadline.wait(for: .seconds(30)) {
      (try? await probe.owner(of: .clipboard)) ?? .none != .none
    }
    guard owned, (try? await probe.targets(of: .clipboard)) != nil else {
      process.kill()
      throw BenchmarkError("\(owner.name) did not take CLIPBOARD or did not answer TARGETS")
    }
    return RunningOwner(owner: owner, process: process)
  }

  /// The owner's CPU time so far, every thread of it, in seconds.
  var cpuSeconds: Double { CPUTime.process(process.pid) }

  /// Ends the owner; returns once nobody owns the selection.
  func stop(probe: X11Display) async throws {
    process.kill()
    let released = await Deadline.wait(for: .seconds(10)) {
      (try? await probe.owner(of: .clipboard)) == XWindow.none
    }
    guard released else {
      throw BenchmarkError("CLIPBOARD is still owned after \(owner.name) ended")
    }
  }
}

/// The descriptors readers write into.
enum Sink {
  /// `/dev/null`, open for the benchmark's life.
  static let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
}
