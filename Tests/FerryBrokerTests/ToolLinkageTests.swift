import FerryTestSupport
import Foundation
import Testing

/// The command-line tools link FoundationEssentials, never full Foundation: a binary that
/// references full Foundation anywhere pulls all of it in, and starts ~0.6 ms later for it
/// (docs/PERFORMANCE.md). `ferry`, which runs the daemon, may.
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
    // Nor the configuration file's YAML reader, which is linked statically when it is.
    let symbols = try PeerProcess.run(["nm", path], display: nil, timeout: .seconds(30))
    #expect(
      symbols.status == 0 && symbols.stdoutText.contains("ArgumentParser"),
      "nm lists the tool's symbols")
    #expect(!symbols.stdoutText.contains("4Yams"), "\(tool) links Yams")
    #expect(
      !symbols.stdoutText.contains("18FerryConfiguration"), "\(tool) links FerryConfiguration")
  }
}
