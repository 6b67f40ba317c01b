// A process that uses a history store, for the fault tests of `ClipboardHistoryTests`
// (`HistoryCrashTests`, `HistoryDiskTests`), which kill it with SIGKILL, give it a full
// disk or a read-only directory, or open the same history beside it.
//
//     HistoryFixture record-loop <directory> <round>
//         Records entries forever: each "entry <round>-<n>" as text, then 1 to 2 MiB of
//         bytes (from memory for even n, from a file for odd n: blobs), then HTML. Keeps 8
//         entries, so evictions and blob removals happen all the time. Prints
//         "recorded <id> <round>-<n>" after each.
//     HistoryFixture open <directory> (writer | reader)
//         Opens the history; prints "opened <entries>" and one line per representation
//         ("ok <id> <index>" or "unavailable <id> <index>"), or "error <case>" and exits 3.
//     HistoryFixture fill-blob <directory> <large-file>
//         For a small file system: records text, then the large file (expected to fail with
//         a full disk), then text and a 1 MiB blob again; prints one line per step.
//     HistoryFixture fill-database <directory>
//         Fills the file system with a filler file, records text (expected to fail with a
//         full disk), removes the filler, records text again; prints one line per step.
//
// `payload(label:size:)` is the bytes the tests expect for a label. Any other failure
// prints one line on stderr and exits 1.

import ClipboardHistory
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Prints one line at once, unbuffered: the tests read it while the fixture runs.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The bytes recorded for `label`: its UTF-8 repeated to `size`.
func payload(label: String, size: Int) -> Data {
  let pattern = Array(label.utf8)
  return Data((0..<size).map { pattern[$0 % pattern.count] })
}

/// The name of an error's case, for the tests to match.
func caseName(_ error: any Error) -> String {
  guard let error = error as? HistoryError else { return "other" }
  return Mirror(reflecting: error).children.first?.label ?? "\(error)"
}

func text(_ string: String) -> HistoryItem {
  HistoryItem(
    pasteboard: "general", changeCount: 0, source: "fixture",
    representations: [.data(Data(string.utf8), type: "public.utf8-plain-text", isText: true)])
}

func recordLoop(directory: URL, round: String) throws -> Never {
  let store = try HistoryStore(directory: directory, limits: HistoryLimits(maximumEntries: 8))
  let sources = directory.deletingLastPathComponent().appendingPathComponent("sources-\(getpid())")
  try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
  var n = 0
  while true {
    let label = "\(round)-\(n)"
    let size = (1 << 20) + (n % 7) * 150_000
    let bytes: HistoryItem.Representation
    if n % 2 == 0 {
      bytes = .data(payload(label: label, size: size), type: "application/octet-stream")
    } else {
      let file = sources.appendingPathComponent(label)
      try payload(label: label, size: size).write(to: file)
      bytes = .file(file, type: "application/octet-stream")
    }
    let item = HistoryItem(
      pasteboard: "general", changeCount: n, source: "fixture \(label)",
      representations: [
        .data(Data("entry \(label)".utf8), type: "public.utf8-plain-text", isText: true),
        bytes,
        .data(Data("<p>entry \(label)</p>".utf8), type: "public.html", isText: true),
      ])
    let result = try store.record(item)
    say("recorded \(result.id.map(String.init(describing:)) ?? "none") \(label)")
    n += 1
  }
}

func open(directory: URL, access: HistoryStore.Access) -> Int32 {
  do {
    let store = try HistoryStore(directory: directory, access: access)
    let entries = try store.list(limit: 1_000)
    say("opened \(entries.count)")
    for entry in entries {
      for index in entry.representations.indices {
        do {
          _ = try store.contents(of: entry.id, at: index).data()
          say("ok \(entry.id) \(index)")
        } catch {
          say("unavailable \(entry.id) \(index) \(caseName(error))")
        }
      }
    }
    return 0
  } catch {
    say("error \(caseName(error)) \(error)")
    return 3
  }
}

/// Runs one step, printing "<name> <result>" or "<name> error <case>".
func step(_ name: String, _ body: () throws -> HistoryStore.RecordResult) {
  do {
    switch try body() {
    case .recorded: say("\(name) recorded")
    case .deduplicated: say("\(name) deduplicated")
    case .refused(let reason): say("\(name) refused \(reason)")
    }
  } catch {
    say("\(name) error \(caseName(error))")
  }
}

func fillBlob(directory: URL, large: URL) throws {
  let store = try HistoryStore(directory: directory)
  step("before") { try store.record(text("before")) }
  step("large") {
    try store.record(
      HistoryItem(
        pasteboard: "general", changeCount: 1,
        representations: [.file(large, type: "application/octet-stream")]))
  }
  let leftovers = try FileManager.default.contentsOfDirectory(
    atPath: directory.appendingPathComponent("blobs").path)
  say("blob files \(leftovers.count)")
  step("after") { try store.record(text("after")) }
  step("blob") {
    try store.record(
      HistoryItem(
        pasteboard: "general", changeCount: 2,
        representations: [
          .data(payload(label: "blob", size: 1 << 20), type: "application/octet-stream")
        ]))
  }
  say("entries \(try store.list(limit: 100).map { $0.preview ?? "-" }.joined(separator: ","))")
}

func fillDatabase(directory: URL) throws {
  let store = try HistoryStore(directory: directory)
  step("before") { try store.record(text("before")) }
  let filler = directory.appendingPathComponent("filler")
  let descriptor = Glibc.open(filler.path, O_WRONLY | O_CREAT, 0o600)
  let chunk = [UInt8](repeating: 7, count: 64 << 10)
  while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  close(descriptor)
  // A long text, so the page it needs cannot come from free space left in the database.
  step("full") { try store.record(text(String(repeating: "full disk ", count: 20_000))) }
  try FileManager.default.removeItem(at: filler)
  step("after") { try store.record(text("after")) }
  say("entries \(try store.list(limit: 100).map { $0.preview ?? "-" }.joined(separator: ","))")
}

let arguments = CommandLine.arguments
do {
  switch (arguments.count, arguments.dropFirst().first) {
  case (4, "record-loop"):
    try recordLoop(directory: URL(fileURLWithPath: arguments[2]), round: arguments[3])
  case (4, "open"):
    exit(
      open(
        directory: URL(fileURLWithPath: arguments[2]),
        access: arguments[3] == "reader" ? .reader : .writer))
  case (4, "fill-blob"):
    try fillBlob(
      directory: URL(fileURLWithPath: arguments[2]), large: URL(fileURLWithPath: arguments[3]))
  case (3, "fill-database"):
    try fillDatabase(directory: URL(fileURLWithPath: arguments[2]))
  default:
    FileHandle.standardError.write(
      Data(
        "usage: HistoryFixture (record-loop DIR ROUND | open DIR writer|reader | fill-blob DIR FILE | fill-database DIR)\n"
          .utf8))
    exit(2)
  }
} catch {
  FileHandle.standardError.write(Data("HistoryFixture: \(error)\n".utf8))
  exit(1)
}
