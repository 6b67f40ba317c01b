// Measures UTType lookups, the cold start of the built-in table and loads of the MIME database.
// Run through Scripts/bench-types, which builds it in release mode.
//
//   UTTypeBenchmark            all figures (spawns itself for the cold measurements)
//   UTTypeBenchmark --cold-system | --cold-mime   one cold measurement, printed in ns
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

/// Runs this program again with `flag` `count` times and returns the median it prints.
func coldMedian(_ flag: String, count: Int) -> Double {
  let executable = CommandLine.arguments[0]
  var samples: [Double] = []
  for _ in 0..<count {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [flag]
    let pipe = Pipe()
    process.standardOutput = pipe
    try! process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    samples.append(Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan)
  }
  return median(samples)
}

func format(_ ns: Double) -> String {
  if ns >= 1_000_000 { return String(format: "%8.2f ms", ns / 1_000_000) }
  if ns >= 1_000 { return String(format: "%8.2f µs", ns / 1_000) }
  return String(format: "%8.1f ns", ns)
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--cold-system" {
  print(measureOnce { blackHole(UTType("public.jpeg")) })
  exit(0)
}
if arguments.first == "--profile", let mode = arguments.dropFirst().first {
  // A fixed amount of work for instruction counting: valgrind --tool=callgrind … --profile ext
  let names = ["jpg", "png", "txt", "pdf", "json", "html", "mp4", "zip"]
  let ids = ["public.jpeg", "public.png", "public.plain-text", "com.adobe.pdf", "public.json",
    "public.html", "public.mpeg-4", "public.zip-archive"]
  switch mode {
  case "ext": for index in 0..<100_000 { blackHole(UTType(filenameExtension: names[index & 7])) }
  case "id": for index in 0..<100_000 { blackHole(UTType(ids[index & 7])) }
  default: for _ in 0..<100_000 { blackHole(UTType.jpeg.conforms(to: .data)) }
  }
  exit(0)
}
if arguments.first == "--cold-mime" {
  _ = SystemTypeTable.catalog
  print(measureOnce { blackHole(SharedMIMEDatabase.load()) })
  exit(0)
}

let identifiers = ["public.jpeg", "public.png", "public.utf8-plain-text", "com.adobe.pdf",
  "public.json", "public.html", "public.mpeg-4", "public.zip-archive"]
let extensions = ["jpg", "png", "txt", "pdf", "json", "html", "mp4", "zip"]
let mimeTypes = ["image/jpeg", "image/png", "text/plain", "application/pdf", "application/json",
  "text/html", "video/mp4", "application/zip"]
let mimeOnlyExtensions = ["wad", "odt", "deb", "rpm", "flac", "mkv", "epub", "xcf"]

print("UTType benchmark (release build; medians of 7 rounds; cold figures: median of 21 fresh processes)")
print("")
let coldSystem = coldMedian("--cold-system", count: 21)
print("built-in set, cold start (first lookup in a new process)  \(format(coldSystem))   aim < 1 ms")
let coldMIME = coldMedian("--cold-mime", count: 21)
print("MIME database load, cold (first load in a new process)    \(format(coldMIME))")
let warmMIME = perCall(rounds: 7, iterations: 10) { _ in blackHole(SharedMIMEDatabase.load()) }
print("MIME database load, warm (files cached, repeated load)     \(format(warmMIME))   aim < 30 ms")
let registry = TypeRegistry(configuration: .init(declarationDirectories: []))
let fullOverlay = measureOnce { blackHole(registry.overlay(loading: .mimeDatabase)) }
print("MIME database into a registry (load + catalog build)       \(format(fullOverlay))")
print("")
let byIdentifier = perCall(iterations: 1_000_000) { blackHole(UTType(identifiers[$0 & 7])) }
print("lookup by identifier                      \(format(byIdentifier))   aim < 200 ns")
let byExtension = perCall(iterations: 1_000_000) { blackHole(UTType(filenameExtension: extensions[$0 & 7])) }
print("lookup by filename extension (system)     \(format(byExtension))   aim < 200 ns")
let byMIME = perCall(iterations: 1_000_000) { blackHole(UTType(mimeType: mimeTypes[$0 & 7])) }
print("lookup by MIME type (system)              \(format(byMIME))   aim < 200 ns")
let byMIMEOnly = perCall(iterations: 1_000_000) {
  blackHole(UTType(filenameExtension: mimeOnlyExtensions[$0 & 7]))
}
print("lookup by extension (MIME database type)  \(format(byMIMEOnly))   aim < 200 ns")
let conformance = perCall(iterations: 1_000_000) { _ in blackHole(UTType.jpeg.conforms(to: .data)) }
print("conforms(to:) (system types)              \(format(conformance))")
