import FerryTestSupport
import Foundation
import X11Selections

/// The chunk size's weight: Ferry's owner sending 100 MiB in INCR chunks of several sizes,
/// each read by Ferry's reader, beside xclip's 1 MiB.
extension Bench {
  static let chunkSizes = [256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20]

  func chunks(rounds: Int) async throws {
    let payload = try makePayload(Self.largeSize)
    guard case .ferry(let executable, _, _) = ferryOwners[0] else { return }
    let owners =
      Self.chunkSizes.map {
        Owner.ferry(executable: executable, label: "Ferry, \(Self.size($0)) chunks", chunk: $0)
      }
      + [.xclip]
    var samples: [Owner: Samples] = [:]
    try await interleave(owners, rounds: rounds) { kind, counted in
      let owner = try await start(kind, serving: .file(payload, target: Self.largeTarget))
      let measurement = try await measure(owner) {
        let clock = ContinuousClock()
        let start = clock.now
        let before = CPUTime.thread(readerThread)
        let reply = try await reader.read(
          .clipboard, target: Self.largeTarget, into: .fileDescriptor(Sink.null),
          stepTimeout: .seconds(10))
        guard reply.byteCount == Self.largeSize else {
          throw BenchmarkError("Ferry read \(reply.byteCount) bytes")
        }
        return ((clock.now - start) / .seconds(1), CPUTime.thread(readerThread) - before)
      }
      try await owner.stop(probe: reader)
      if counted { samples[kind, default: Samples()].append(measurement) }
    }

    print(
      "\n100 MiB read by Ferry's reader, Ferry's owner sending chunks of each size (16 MiB: the server's maximum request)"
    )
    print(Report.padded("owner", 28) + "    wall   owner CPU  reader CPU    Xvfb CPU")
    for owner in owners {
      let values = samples[owner]!
      print(
        Report.padded(owner.name, 24) + Report.milliseconds(Report.median(values.wall))
          + Report.milliseconds(Report.median(values.owner))
          + Report.milliseconds(Report.median(values.reader))
          + Report.milliseconds(Report.median(values.server)))
    }
  }

  private static func size(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }
}
