// swift-tools-version: 6.1
// Ferry's benchmarks, a package of their own so that the root package's `swift build` does
// not compile them. Scripts/bench, bench-x11, bench-types, bench-types-instructions and
// bench-history build them in release, into .build-benchmarks (docs/PERFORMANCE.md):
//
//   swift build -c release --package-path Benchmarks --scratch-path .build-benchmarks
import Foundation
import PackageDescription

// The benchmarks time Ferry's internals — UniformTypeIdentifiers' built-in table and MIME
// database load, X11Selections' serving chunk and X thread — which are `package`
// declarations: they compile as modules of the root package. SwiftPM names a package's
// modules' package after its identity, the last component of its path (this checkout's
// folder), lowercased, as a C identifier; `packageAccess: false` keeps SwiftPM's own
// `-package-name` (this package's) off the benchmarks.
let ferryPackageName: String = {
  let folder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .lastPathComponent
  let name = String(
    folder.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
  return name.first?.isNumber == true ? "_" + name : name
}()
let asFerry: [SwiftSetting] = [.unsafeFlags(["-package-name", ferryPackageName])]

let package = Package(
  name: "FerryBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Ferry", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "UTTypeBenchmark",
      dependencies: [.product(name: "UniformTypeIdentifiers", package: "Ferry")],
      path: "UTTypeBenchmark",
      packageAccess: false, swiftSettings: asFerry),
    .executableTarget(
      name: "X11Benchmark",
      dependencies: [
        .product(name: "X11Selections", package: "Ferry"),
        .product(name: "Pasteboard", package: "Ferry"),
        .product(name: "UniformTypeIdentifiers", package: "Ferry"),
        .product(name: "FerryTestSupport", package: "Ferry"),
        .product(name: "FerrySystem", package: "Ferry"),
      ],
      path: "X11Benchmark", packageAccess: false, swiftSettings: asFerry),
    .executableTarget(
      name: "HistoryBenchmark",
      dependencies: [
        .product(name: "ClipboardHistory", package: "Ferry"),
        .product(name: "FerryTestSupport", package: "Ferry"),
      ],
      path: "HistoryBenchmark", packageAccess: false, swiftSettings: asFerry),
  ],
  swiftLanguageModes: [.v6]
)
