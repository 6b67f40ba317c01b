import FerryTestSupport
import Foundation
import Testing

/// The tools link FoundationEssentials, never full Foundation: a binary that references full
/// Foundation anywhere pulls all of it in, ICU's 30 MB of data with it, and starts ~0.6 ms
/// later for it (docs/PERFORMANCE.md, "Size"). `pbcopy` and `pbpaste` link no history,
/// configuration or YAML either.
@Suite struct ToolLinkageTests {
  @Test(arguments: ["pbpaste", "pbcopy"])
  func aShortCommandDoesNotLinkFullFoundation(tool: String) throws {
    let path = try Tools.path(tool)
    let result = try PeerProcess.run(["readelf", "-d", path], display: nil, timeout: .seconds(30))
    #expect(result.status == 0, "\(result.stderrText)")
    let needed = result.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }
    #expect(!needed.isEmpty, "a dynamically linked test build names its libraries")
    #expect(needed.contains { $0.contains("libFoundationEssentials.so") })
    #expect(!needed.contains { $0.contains("[libFoundation.so]") }, "\(tool) links full Foundation")
    #expect(!needed.contains { $0.contains("libsqlite3") }, "\(tool) links the history store")
    #expect(!needed.contains { $0.contains("libyaml") }, "\(tool) links the YAML reader")
    let symbols = try PeerProcess.run(["nm", path], display: nil, timeout: .seconds(30))
    #expect(
      symbols.status == 0 && symbols.stdoutText.contains("ArgumentParser"),
      "nm lists the tool's symbols")
    #expect(
      !symbols.stdoutText.contains("18FerryConfiguration"), "\(tool) links FerryConfiguration")
  }

  /// `ferry` run by the name `pbcopy` or `pbpaste` (a link, as `Scripts/install` makes them)
  /// is that command: its usage error, its help, its status.
  @Test(arguments: ["pbpaste", "pbcopy"])
  func ferryRunsAsTheToolItIsCalledBy(tool: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-multicall-\(getpid())-\(tool)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let link = directory.appendingPathComponent(tool).path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: try Tools.path("ferry"))
    let usage = try PeerProcess.run(
      [link, "-pboard", "bad!name"], display: nil, input: Data("text".utf8), timeout: .seconds(30))
    #expect(usage.status == 2, "\(usage.stderrText)")
    #expect(usage.stderrText.hasPrefix("\(tool): "), "\(usage.stderrText)")
    let help = try PeerProcess.run([link, "--help"], display: nil, timeout: .seconds(30))
    #expect(help.status == 0 && help.stdoutText.contains("USAGE: \(tool) "), "\(help.stdoutText)")
  }

  /// Nor does `ferry`, daemon and all: its history (SQLite), configuration (libyaml) and
  /// commands do without full Foundation, which made it a 78 MB binary.
  @Test func ferryDoesNotLinkFullFoundation() throws {
    let result = try PeerProcess.run(
      ["readelf", "-d", try Tools.path("ferry")], display: nil, timeout: .seconds(30))
    #expect(result.status == 0, "\(result.stderrText)")
    let needed = result.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }
    #expect(needed.contains { $0.contains("libFoundationEssentials.so") })
    #expect(!needed.contains { $0.contains("[libFoundation.so]") }, "ferry links full Foundation")
    #expect(
      !needed.contains { $0.contains("libFoundationInternationalization") },
      "ferry links FoundationInternationalization")
  }
}
