// Measures UTType lookups, the cold start of the built-in table and loads of the MIME database.
// Run through Scripts/bench-types, which builds it in release mode.
//
//   UTTypeBenchmark                      all figures (spawns itself for the cold measurements)
//   UTTypeBenchmark --lookups            the lookup figures only
//   UTTypeBenchmark --compare OTHER [N]  the lookup figures of OTHER (another build of this
//                                        program) and of this one, interleaved case by case,
//                                        N rounds (default 5), medians
//   UTTypeBenchmark --lookup MODE        one lookup figure, printed in ns
//   UTTypeBenchmark --profile MODE [COUNT]   checks MODE's inputs, looks each up once, then
//                                        COUNT (default 100000) more times: a fixed amount of
//                                        work for Scripts/bench-types-instructions (callgrind)
//   UTTypeBenchmark --cold-system | --cold-mime   one cold measurement, printed in ns
import Foundation
import UniformTypeIdentifiers

/// Lookups per round; each figure is the median of 7 rounds.
let lookupIterations = 300_000

func lookupCase(_ mode: String) -> LookupCase {
  guard let found = lookupCases.first(where: { $0.mode == mode }) else {
    fatalError("unknown mode \(mode); modes: \(lookupCases.map(\.mode).joined(separator: ", "))")
  }
  if let problem = found.problem() { fatalError("\(mode): \(problem)") }
  return found
}

func printLookups() {
  for item in lookupCases {
    let figure = perCall(iterations: lookupIterations, lookupCase(item.mode).body)
    print("\(column(item.label)) \(format(figure))   \(item.aim)")
  }
}

/// Each lookup figure of `baseline` and of this program, run in turn `rounds` times.
func printComparison(baseline: String, rounds: Int) {
  print("lookups, medians of \(rounds) interleaved runs of 7 rounds each (ns)")
  print("\(column(""))   baseline       this   this/baseline")
  for item in lookupCases {
    var theirs: [Double] = []
    var ours: [Double] = []
    for _ in 0..<rounds {
      theirs.append(number(printedBy: baseline, ["--lookup", item.mode]))
      ours.append(number(printedBy: CommandLine.arguments[0], ["--lookup", item.mode]))
    }
    let (before, after) = (median(theirs), median(ours))
    let figures = String(format: "%8.1f   %8.1f   %5.2f", before, after, after / before)
    print("\(column(item.label)) \(figures)")
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--cold-system":
  print(measureOnce { blackHole(UTType("public.jpeg")) })
  exit(0)
case "--cold-mime":
  _ = SystemTypeTable.catalog
  print(measureOnce { blackHole(SharedMIMEDatabase.load()) })
  exit(0)
case "--lookup" where arguments.count == 2:
  print(perCall(iterations: lookupIterations, lookupCase(arguments[1]).body))
  exit(0)
case "--profile" where arguments.count >= 2:
  let body = lookupCase(arguments[1]).body
  let count = arguments.count > 2 ? Int(arguments[2])! : 100_000
  for index in 0..<8 { body(index) }
  for index in 0..<count { body(index) }
  exit(0)
case "--lookups":
  printLookups()
  exit(0)
case "--compare" where arguments.count >= 2:
  printComparison(baseline: arguments[1], rounds: arguments.count > 2 ? Int(arguments[2])! : 5)
  exit(0)
case nil:
  break
default:
  fatalError("unknown arguments \(arguments); see the top of Benchmarks/UTTypeBenchmark/main.swift")
}

print(
  "UTType benchmark (release build; medians of 7 rounds; cold figures: median of 21 fresh processes)"
)
print("")
let coldSystem = coldMedian("--cold-system", count: 21)
print(
  "built-in set, cold start (first lookup in a new process)  \(format(coldSystem))   aim < 1 ms")
let coldMIME = coldMedian("--cold-mime", count: 21)
print("MIME database load, cold (first load in a new process)    \(format(coldMIME))")
let warmMIME = perCall(rounds: 7, iterations: 10) { _ in blackHole(SharedMIMEDatabase.load()) }
print(
  "MIME database load, warm (files cached, repeated load)     \(format(warmMIME))   aim < 30 ms")
let registry = TypeRegistry(configuration: .init(declarationDirectories: []))
let fullOverlay = measureOnce { blackHole(registry.overlay(loading: .mimeDatabase)) }
print("MIME database into a registry (load + catalog build)       \(format(fullOverlay))")
print("")
printLookups()
