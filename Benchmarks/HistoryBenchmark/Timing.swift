import Foundation

/// Runs an operation repeatedly and prints its median and 90th percentile.
enum Timing {
  ///
  /// - Parameters:
  ///   - key: A short name for scripts (`Scripts/bench-history` compares by it).
  ///   - name: What is timed, for people.
  ///   - runs: How many timed runs, after one untimed warm-up.
  static func report(
    _ key: String, _ name: String, runs: Int = runsDefault, _ operation: () throws -> Void
  ) {
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    do {
      try operation()  // warm-up: statements prepared, pages cached
      for _ in 0..<runs {
        let start = ContinuousClock.now
        try operation()
        samples.append((ContinuousClock.now - start).milliseconds)
      }
    } catch {
      print("\(name): failed: \(error)")
      return
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let p90 = samples[min(samples.count - 1, samples.count * 9 / 10)]
    let mean = samples.reduce(0, +) / Double(samples.count)
    print(
      name.padding(toLength: 62, withPad: " ", startingAt: 0)
        + String(format: "%9.3f  %9.3f  %9.3f   ", median, p90, mean) + key)
  }

  /// The `--runs` argument.
  nonisolated(unsafe) static var runsDefault = 301
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
  var milliseconds: Double { seconds * 1_000 }
}
