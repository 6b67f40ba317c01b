import FerryTestSupport
import Foundation
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// The measurements, on one Xvfb: owners in processes of their own, and a Ferry connection
/// in this process that reads (Ferry's reader) and watches who owns `CLIPBOARD`.
struct Bench {
  let display: String
  /// Xvfb's process, whose CPU time each measurement reports too.
  let xvfb: pid_t
  let reader: X11Display
  let readerThread: pid_t
  let directory: URL
  /// Ferry's owner: this build's, then another build's when comparing (`--compare`).
  let ferryOwners: [Owner]

  /// What one contender took, round after round.
  struct Samples {
    var wall: [Double] = []
    var owner: [Double] = []
    var reader: [Double] = []
    var server: [Double] = []

    mutating func append(_ measurement: Measurement) {
      wall.append(measurement.wall)
      owner.append(measurement.owner)
      reader.append(measurement.reader)
      server.append(measurement.server)
    }
  }

  /// What one read took: its wall time and the CPU time of the owner, the reader(s) and Xvfb.
  struct Measurement {
    var wall: Double
    var owner: Double
    var reader: Double
    var server: Double
  }

  func start(_ owner: Owner, serving served: Served) async throws -> RunningOwner {
    try await RunningOwner.start(owner, serving: served, probe: reader, display: display)
  }

  /// Runs `read`, which returns its wall time and its reader's CPU time, and measures the
  /// owner's and Xvfb's CPU time around it.
  func measure(_ owner: RunningOwner, _ read: () async throws -> (wall: Double, reader: Double))
    async throws
    -> Measurement
  {
    let (ownerBefore, serverBefore) = (owner.cpuSeconds, CPUTime.process(xvfb))
    let (wall, readerCPU) = try await read()
    return Measurement(
      wall: wall, owner: owner.cpuSeconds - ownerBefore, reader: readerCPU,
      server: CPUTime.process(xvfb) - serverBefore)
  }

  /// Runs `body` for each contender in turn, `rounds` times after a warm-up round, moving the
  /// first contender by one each round.
  func interleave<Contender>(
    _ contenders: [Contender], rounds: Int,
    _ body: (Contender, _ counted: Bool) async throws -> Void
  ) async throws {
    for round in 0...rounds {
      for index in contenders.indices {
        try await body(contenders[(index + round) % contenders.count], round > 0)
      }
    }
  }
}

/// Medians and table rows.
enum Report {
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  static func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func milliseconds(_ seconds: Double) -> String {
    String(format: "%8.1f ms", seconds * 1000)
  }

  static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
}
