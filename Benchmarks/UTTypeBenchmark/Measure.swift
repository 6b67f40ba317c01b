// Timing helpers: medians of rounds, one-shot timings, and runs of this program in a child.
import Foundation
import UniformTypeIdentifiers

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
@inline(never) func blackHole(_ value: UTType?) { withExtendedLifetime(value) {} }
@inline(never) func blackHole(_ value: Bool) { withExtendedLifetime(value) {} }

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// The median over `rounds` of the time per call of `body`, each round `iterations` calls.
func perCall(rounds: Int = 7, iterations: Int, _ body: (Int) -> Void) -> Double {
  let clock = ContinuousClock()
  for index in 0..<min(iterations, 1000) { body(index) }  // warm up
  var samples: [Double] = []
  for _ in 0..<rounds {
    let start = clock.now
    for index in 0..<iterations { body(index) }
    samples.append(nanoseconds(clock.now - start) / Double(iterations))
  }
  return median(samples)
}

func measureOnce(_ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  body()
  return nanoseconds(clock.now - start)
}

/// Runs `executable` with `arguments` and returns its standard output.
func output(of executable: String, _ arguments: [String]) -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try! process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}

/// The number `executable` prints when run with `arguments`.
func number(printedBy executable: String, _ arguments: [String]) -> Double {
  Double(output(of: executable, arguments).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
}

/// Runs this program again with `flag` `count` times and returns the median it prints.
func coldMedian(_ flag: String, count: Int) -> Double {
  median((0..<count).map { _ in number(printedBy: CommandLine.arguments[0], [flag]) })
}

/// `label` padded to the width of the first column.
func column(_ label: String) -> String {
  label.padding(toLength: 44, withPad: " ", startingAt: 0)
}

func format(_ ns: Double) -> String {
  if ns >= 1_000_000 { return String(format: "%8.2f ms", ns / 1_000_000) }
  if ns >= 1_000 { return String(format: "%8.2f µs", ns / 1_000) }
  return String(format: "%8.1f ns", ns)
}
