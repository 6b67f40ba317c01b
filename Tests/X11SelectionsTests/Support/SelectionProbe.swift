import FerryTestSupport
import Foundation
import Testing
import X11Selections

/// The correctness peer: `Tests/Peers/xselprobe.c`, an Xlib requestor and owner of our own
/// that prints what is really on the wire (xclip answers every target with the same bytes,
/// so it can prove interoperability only, never correctness).
///
/// Built once per test process with `cc` (``CompiledPeer``); tests that need it are skipped,
/// saying why, when `cc` or the Xlib headers are missing.
enum SelectionProbe {
  private static let built = OnceOffThePool { try CompiledPeer.build("xselprobe.c") }

  /// The probe's executable.
  static func path() async throws -> String {
    try await built.value
  }

  /// Converts `selection` to `target` and reports the reply; `time` replaces the current
  /// server time as the request's time.
  static func get(
    _ selection: Selection, _ target: String, display: String, outputFile: URL? = nil,
    obsolete: Bool = false,
    time: UInt? = nil
  ) async throws -> ProbeReply {
    var arguments = [try await path(), "get", selection.rawValue, target]
    if let outputFile { arguments.append(outputFile.path) }
    if obsolete { arguments.append("--obsolete") }
    if let time { arguments += ["--time", String(time)] }
    return ProbeReply(try await runPeer(arguments, display: display))
  }

  /// Converts `selection` to all `targets` in one `MULTIPLE` request.
  static func multiple(_ selection: Selection, _ targets: [String], display: String) async throws
    -> ProbeReply
  {
    ProbeReply(
      try await runPeer(
        [try await path(), "multiple", selection.rawValue] + targets, display: display))
  }

  /// Starts the probe in a long-running mode (`stall`, `own`).
  static func start(_ arguments: [String], display: String) async throws -> PeerProcess {
    try await startPeer([try await path()] + arguments, display: display)
  }
}

/// What the probe printed, parsed.
struct ProbeReply: CustomStringConvertible {
  /// One `pair` line of a `MULTIPLE` reply.
  struct Pair: Equatable {
    var target: String
    /// `nil` when the owner wrote `None` for this pair: it failed.
    var type: String?
    var hex: String?
  }

  var status: Int32
  var lines: [String]
  var fields: [String: String] = [:]
  var atoms: [String] = []
  var values: [Int] = []
  var pairs: [Pair] = []

  init(_ result: PeerProcess.Result) {
    status = result.status
    errorOutput = result.stderrText
    lines = result.stdoutText.split(separator: "\n").map(String.init)
    for line in lines {
      if line.hasPrefix("result ") {
        fields = Self.keyValues(line.dropFirst("result ".count))
      } else if line.hasPrefix("atom=") {
        atoms.append(String(line.dropFirst(5)))
      } else if line.hasPrefix("value=") {
        values.append(Int(line.dropFirst(6)) ?? .min)
      } else if line.hasPrefix("pair ") {
        let pairFields = Self.keyValues(line.dropFirst(5))
        pairs.append(
          Pair(
            target: pairFields["target"] ?? "?", type: pairFields["type"], hex: pairFields["hex"]))
      }
    }
  }

  private var errorOutput: String

  private static func keyValues(_ line: Substring) -> [String: String] {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ") {
      let parts = word.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
  }

  var isRefused: Bool { lines.first == "refused" }
  var isTimeout: Bool { lines.contains { $0.hasPrefix("timeout") } }
  var type: String? { fields["type"] }
  var format: Int? { fields["format"].flatMap { Int($0) } }
  var byteCount: Int? { fields["bytes"].flatMap { Int($0) } }
  var chunks: Int? { fields["chunks"].flatMap { Int($0) } }
  var wasIncremental: Bool { fields["incr"] == "1" }
  var hex: String? { fields["hex"] }

  var description: String {
    "xselprobe exit \(status): \(lines.joined(separator: " | ")) \(errorOutput)"
  }
}
