import FerryTestSupport
import Foundation
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// Many small requests at once: 100 `xclip -o` of a short text started together.
extension Bench {
  static let concurrentReaders = 100
  static let shortText = "Ferry benchmark: a short text to paste.\n"

  func small(rounds: Int) async throws {
    let text = directory.appendingPathComponent("text.txt")
    try Data(Self.shortText.utf8).write(to: text)
    let owners = ferryOwners + [.xclip, .xsel]
    var samples: [Owner: Samples] = [:]
    try await interleave(owners, rounds: rounds) { kind, counted in
      let owner = try await start(kind, serving: .text(text))
      let measurement = try await measure(owner) { try await readConcurrently() }
      try await owner.stop(probe: reader)
      if counted { samples[kind, default: Samples()].append(measurement) }
    }

    print(
      "\n\(Self.concurrentReaders) `xclip -o` of a \(Self.shortText.utf8.count)-byte text started at once: until the last answers"
    )
    print(Report.padded("owner", 18) + "    wall   owner CPU readers' CPU   Xvfb CPU")
    for owner in owners {
      let values = samples[owner]!
      print(
        Report.padded(owner.name, 16) + Report.milliseconds(Report.median(values.wall))
          + Report.milliseconds(Report.median(values.owner))
          + Report.milliseconds(Report.median(values.reader))
          + Report.milliseconds(Report.median(values.server)))
    }
    func wall(_ owner: Owner) -> Double { Report.median(samples[owner]!.wall) }
    for ferry in ferryOwners {
      for other in [Owner.xclip, .xsel] {
        print(
          "\(ferry.name)'s owner is \(Report.ratio(wall(other) / wall(ferry))) \(other.name)'s (its time / \(ferry.name)'s)"
        )
      }
    }
  }

  /// Starts the readers together, each writing into one file, on a thread of its own;
  /// returns once the last has ended, with the time since the first started and their CPU
  /// time together. Every reader must succeed and the file must hold every copy of the text.
  private func readConcurrently() async throws -> (wall: Double, reader: Double) {
    let output = directory.appendingPathComponent("pastes.txt")
    let sink = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
    defer { close(sink) }
    let display = display
    let (wall, endings) = try await DetachedThread.run {
      let clock = ContinuousClock()
      let start = clock.now
      let readers = try (0..<Self.concurrentReaders).map { _ in
        try Spawned(["xclip", "-o", "-selection", "clipboard"], display: display, output: sink)
      }
      let endings = readers.map { $0.wait() }
      return ((clock.now - start) / .seconds(1), endings)
    }
    let failed = endings.filter { !$0.succeeded }.count
    guard failed == 0 else {
      throw BenchmarkError("\(failed) readers of \(Self.concurrentReaders) failed")
    }
    let size = (try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? -1
    guard size == Self.concurrentReaders * Self.shortText.utf8.count else {
      throw BenchmarkError("the readers wrote \(size) bytes")
    }
    return (wall, endings.reduce(0) { $0 + $1.cpuSeconds })
  }
}
