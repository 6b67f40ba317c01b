// Selection owners side by side on one private Xvfb: Ferry's beside xclip's and xsel's
// (docs/PERFORMANCE.md). Run through Scripts/bench-x11 (release build):
//
//   X11Benchmark [--rounds N] [--only large|small|chunks|OWNER-READER] [--compare LABEL=PATH]
//                [--xvfb DISPLAY=PID]
//
// Every owner runs in a process of its own (Ferry's is this executable's `--serve` mode).
// Each round runs every contender once, in turn (the first contender moves by one each
// round), so that a shared machine's changing load falls on each alike; the figures are
// medians over the rounds, after one warm-up round that is not counted.
//
// `chunks` weighs the INCR chunk size (run only when asked for). OWNER-READER runs one
// contender of the 100 MiB section alone, to profile it: ferry-ferry, xclip-ferry,
// ferry-xclip or xclip-xclip (owner, then reader). `--compare` adds another build's owner
// (another X11Benchmark, say one built before a change) as "Ferry LABEL".
import FerryTestSupport
import Foundation
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

let usage =
  "usage: X11Benchmark [--rounds N] [--only large|small|chunks|OWNER-READER] [--compare LABEL=PATH] [--xvfb DISPLAY=PID]\n"
if CommandLine.arguments.dropFirst().first == ServeMode.flag {
  try await ServeMode.run(Array(CommandLine.arguments.dropFirst(2)))
}

/// This executable, which Ferry's owner processes run.
let executable =
  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
  ?? CommandLine.arguments[0]
let ferry = Owner.ferry(executable: executable, label: "Ferry")
var rounds = Int(ProcessInfo.processInfo.environment["FERRY_BENCH_RUNS"] ?? "9") ?? 9
var sections: Set<String> = ["large", "small"]
var only: Bench.LargeCase?
var compared: Owner?
/// A server the caller started: its display name and process id.
var givenServer: (name: String, processIdentifier: Int32)?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch (argument, arguments.popFirst()) {
  case ("--rounds", let value?): rounds = Int(value) ?? rounds
  case ("--compare", let value?) where value.contains("="):
    let (label, path) = (value.prefix { $0 != "=" }, value.drop { $0 != "=" }.dropFirst())
    compared = .ferry(executable: String(path), label: "Ferry \(label)")
  case ("--xvfb", let value?) where value.contains("="):
    let (name, pid) = (value.prefix { $0 != "=" }, value.drop { $0 != "=" }.dropFirst())
    guard let processIdentifier = Int32(pid) else {
      FileHandle.standardError.write(Data(usage.utf8))
      exit(2)
    }
    givenServer = (String(name), processIdentifier)
  case ("--only", let value?):
    let parts = value.split(separator: "-").map(String.init)
    let owners = ["ferry": ferry, "xclip": Owner.xclip]
    let readers = ["ferry": Bench.LargeReader.ferry, "xclip": .xclip]
    if parts.count == 2, let owner = owners[parts[0]], let reader = readers[parts[1]] {
      only = Bench.LargeCase(owner: owner, reader: reader)
      sections = ["large"]
    } else if ["large", "small", "chunks"].contains(value) {
      sections = [value]
    } else {
      FileHandle.standardError.write(Data(usage.utf8))
      exit(2)
    }
  default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
  }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "ferry-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let server =
  try givenServer
  ?? {
    let xvfb = try XvfbServer.shared()
    return (xvfb.name, xvfb.processIdentifier)
  }()
let reader = try X11Display(name: server.name)
let bench = Bench(
  display: server.name, xvfb: server.processIdentifier, reader: reader,
  readerThread: try await CPUTime.xThreadID(of: reader), directory: directory,
  ferryOwners: [ferry] + (compared.map { [$0] } ?? []))

print("Xvfb \(server.name), release build, \(rounds) interleaved rounds after one warm-up, medians")
if sections.contains("large") {
  try await bench.large(rounds: rounds, only: only)
}
if sections.contains("small") {
  try await bench.small(rounds: rounds)
}
if sections.contains("chunks") {
  try await bench.chunks(rounds: rounds)
}
