// 100 MiB through the CLIPBOARD selection, Ferry beside xclip, on one private Xvfb.
// Run through Scripts/bench-x11 (release build). Prints medians of several runs and ratios.
import FerryTestSupport
import Foundation
import Pasteboard
import UniformTypeIdentifiers
import X11Selections

let size = 100 << 20
let runs = Int(ProcessInfo.processInfo.environment["FERRY_BENCH_RUNS"] ?? "5") ?? 5
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let payload = directory.appendingPathComponent("payload.bin")
do {
  var generator = SystemRandomNumberGenerator()
  var bytes = [UInt8](repeating: 0, count: 1 << 20)
  _ = FileManager.default.createFile(atPath: payload.path, contents: nil)
  let handle = try FileHandle(forWritingTo: payload)
  for _ in 0..<(size >> 20) {
    for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
    try handle.write(contentsOf: bytes)
  }
  try handle.close()
}

let xvfb = try XvfbServer.shared()
let target = "application/octet-stream"

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Times `xclip -o` reading the selection into /dev/null; checks the size it read.
func timeXclipRead() throws -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  let result = try PeerProcess.run(
    ["/bin/sh", "-c", "xclip -o -selection clipboard -t \(target) | wc -c"], display: xvfb.name, timeout: .seconds(120))
  let elapsed = seconds(clock.now - start)
  guard result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == String(size) else {
    fatalError("xclip read \(result.stdoutText) bytes: \(result.stderrText)")
  }
  return elapsed
}

/// Starts xclip owning the payload; returns once it owns the selection.
func startXclipOwner(_ display: X11Display) async throws -> PeerProcess {
  let owner = try PeerProcess(
    ["/bin/sh", "-c", "exec xclip -i -quiet -selection clipboard -t \(target) < \(payload.path)"], display: xvfb.name)
  let owned = await Deadline.wait(for: .seconds(20)) {
    (try? await display.owner(of: .clipboard)) ?? .none != .none
  }
  guard owned else { fatalError("xclip did not take the selection") }
  return owner
}

/// Times a Ferry read of the selection into /dev/null; checks the size.
func timeFerryRead(_ display: X11Display) async throws -> Double {
  let devNull = open("/dev/null", O_WRONLY)
  defer { close(devNull) }
  let clock = ContinuousClock()
  let start = clock.now
  let reply = try await display.read(.clipboard, target: target, into: .fileDescriptor(devNull), stepTimeout: .seconds(10))
  guard reply.byteCount == size else { fatalError("Ferry read \(reply.byteCount) bytes") }
  return seconds(clock.now - start)
}

let display = try X11Display(name: xvfb.name)
let reader = try X11Display(name: xvfb.name)
var ferryServes: [Double] = []
var ferryServesFerryReads: [Double] = []
var xclipServes: [Double] = []
var ferryReads: [Double] = []
var xclipReads: [Double] = []

for _ in 0..<runs {
  // Ferry serves, xclip reads.
  try await display.own(.clipboard, item: PasteboardItem(representations: [.file(payload, type: .data)]))
  ferryServes.append(try timeXclipRead())
  // The same, read by a fast reader (another connection of Ferry's): xclip -o's own reading
  // speed bounds the row above, whoever serves.
  ferryServesFerryReads.append(try await timeFerryRead(reader))
  await display.disown(.clipboard)

  // xclip serves, xclip reads.
  var owner = try await startXclipOwner(display)
  xclipServes.append(try timeXclipRead())

  // xclip serves, Ferry reads into /dev/null.
  ferryReads.append(try await timeFerryRead(display))
  _ = owner.kill()

  // xclip serves, xclip reads (the reading side of the comparison, with a fresh owner).
  owner = try await startXclipOwner(display)
  xclipReads.append(try timeXclipRead())
  _ = owner.kill()
}

func row(_ label: String, _ values: [Double]) -> String {
  let mib = Double(size) / Double(1 << 20)
  return String(format: "%-44@ %7.3f s  %7.1f MiB/s", label as NSString, median(values), mib / median(values))
}

print("100 MiB through CLIPBOARD on Xvfb \(xvfb.name) (release build; medians of \(runs) runs, wall time of the reading side)")
print(row("Ferry serves  → xclip -o", ferryServes))
print(row("Ferry serves  → Ferry reads", ferryServesFerryReads))
print(row("xclip serves  → xclip -o", xclipServes))
print(row("xclip serves  → Ferry reads", ferryReads))
print(row("xclip serves  → xclip -o (again)", xclipReads))
print(String(format: "serving, read by xclip -o: Ferry is %.1f× xclip (aim ≥ 3×)", median(xclipServes) / median(ferryServes)))
print(String(format: "serving, read by Ferry:    Ferry is %.1f× xclip", median(ferryReads) / median(ferryServesFerryReads)))
print(String(format: "reading: Ferry is %.1f× xclip -o (aim ≥ 1×)", median(xclipReads) / median(ferryReads)))
