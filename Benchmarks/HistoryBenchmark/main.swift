// Times the history store with a large history (figures go to docs/PERFORMANCE.md,
// "History store"). Run through Scripts/bench-history.
//
//     HistoryBenchmark [--entries N] [--runs N] [--directory DIR]
//
// Fills a new history (in DIR, else a temporary directory, removed at the end) with N
// entries of mixed sizes, then times each operation `runs` times and prints one line per
// operation: its name, median and 90th percentile in milliseconds. Every entry goes through
// `record`, as the broker's would; the fill's own rate is printed too.

import ClipboardHistory
import FerryTestSupport
import Foundation

var entryCount = 100_000
var runs = 301
var directoryArgument: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--entries": entryCount = Int(arguments.next() ?? "") ?? entryCount
  case "--runs": runs = Int(arguments.next() ?? "") ?? runs
  case "--directory": directoryArgument = arguments.next()
  default:
    FileHandle.standardError.write(
      Data("usage: HistoryBenchmark [--entries N] [--runs N] [--directory DIR]\n".utf8))
    exit(2)
  }
}
let directory = URL(
  fileURLWithPath: directoryArgument ?? NSTemporaryDirectory() + "ferry-history-bench-\(getpid())")
Timing.runsDefault = runs

var generator = SplitMix64(seed: 2026)
let limits = HistoryLimits(maximumEntries: entryCount, maximumTotalBytes: 8 << 30)
var store = try HistoryStore(directory: directory, limits: limits)

// MARK: Fill

let fillStart = ContinuousClock.now
for n in 0..<entryCount {
  try store.record(Workload.mixedItem(n, using: &generator))
}
let fillTime = ContinuousClock.now - fillStart
let status = try store.status()
print(
  String(
    format: "fill: %d entries, %.0f MB recorded, database %.0f MB, in %.1f s (%.0f entries/s)",
    status.entries,
    Double(status.totalBytes) / 1e6, Double(status.databaseBytes) / 1e6, fillTime.seconds,
    Double(entryCount) / fillTime.seconds))

// MARK: Operations

print(
  "operation".padding(toLength: 62, withPad: " ", startingAt: 0)
    + "median ms     p90 ms    mean ms   key")
var copy = 0
Timing.report("record", "record a short text (full history: evicts one)") {
  copy += 1
  try store.record(Workload.shortText("bench copy \(copy) of a short line", changeCount: copy))
}
Timing.report("list", "list --limit 50") { _ = try store.list(limit: 50) }
Timing.report("list-pboard", "list --limit 50 -pboard general") {
  _ = try store.list(limit: 50, pasteboard: "general")
}
for (index, (label, query)) in Workload.searches.enumerated() {
  Timing.report("search-\(index)", "search \(label)") { _ = try store.search(query, limit: 50) }
}
Timing.report("restore", "restore: newest general entry, every representation") {
  let entry = try store.newest(pasteboard: "general")!
  for index in entry.representations.indices { _ = try store.contents(of: entry.id, at: index) }
}
let largest = try store.list(limit: 2_000).max {
  $0.representations.count < $1.representations.count
}!
Timing.report(
  "restore-old", "restore: an older entry by id (\(largest.representations.count) representations)"
) {
  let entry = try store.entry(largest.id)!
  for index in entry.representations.indices { _ = try store.contents(of: entry.id, at: index) }
}
try store.close()
Timing.report("open", "open the history (writer: migrate check, blob sweep)", runs: 11) {
  let reopened = try HistoryStore(directory: directory, limits: limits)
  try reopened.close()
}
store = try HistoryStore(
  directory: directory,
  limits: HistoryLimits(maximumEntries: 10 * entryCount, maximumTotalBytes: 8 << 30))
Timing.report("record-growing", "record a short text (no eviction)") {
  copy += 1
  try store.record(Workload.shortText("bench copy \(copy) of a short line", changeCount: copy))
}
try store.close()
if directoryArgument == nil { try? FileManager.default.removeItem(at: directory) }
