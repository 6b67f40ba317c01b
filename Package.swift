// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Ferry",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
    .library(name: "CoreTransferable", targets: ["CoreTransferable"]),
    .library(name: "Pasteboard", targets: ["Pasteboard"]),
    .library(name: "X11Selections", targets: ["X11Selections"]),
    .executable(name: "ferry", targets: ["ferry"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    .target(name: "UniformTypeIdentifiers"),
    .target(name: "CoreTransferable", dependencies: ["UniformTypeIdentifiers"]),
    .target(name: "Pasteboard", dependencies: ["UniformTypeIdentifiers", "CoreTransferable"]),
    .systemLibrary(
      name: "CX11", pkgConfig: "x11 xfixes",
      providers: [.apt(["libx11-dev", "libxfixes-dev"])]),
    .target(
      name: "X11Selections",
      dependencies: ["CX11", "UniformTypeIdentifiers", "CoreTransferable", "Pasteboard"]),
    .target(name: "FerryTestSupport"),
    .executableTarget(
      name: "ferry",
      dependencies: [
        "UniformTypeIdentifiers",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "UTTypeBenchmark",
      dependencies: ["UniformTypeIdentifiers"],
      path: "Benchmarks/UTTypeBenchmark"
    ),
    .executableTarget(
      name: "TransferableExample",
      dependencies: ["UniformTypeIdentifiers", "CoreTransferable"],
      path: "Examples/TransferableExample"
    ),
    .executableTarget(
      name: "X11Benchmark",
      dependencies: ["X11Selections", "Pasteboard", "UniformTypeIdentifiers", "FerryTestSupport"],
      path: "Benchmarks/X11Benchmark"
    ),
    .testTarget(
      name: "UniformTypeIdentifiersTests",
      dependencies: ["UniformTypeIdentifiers"]
    ),
    .executableTarget(name: "PasteboardSaveFixture", dependencies: ["Pasteboard", "UniformTypeIdentifiers"], path: "Sources/PasteboardSaveFixture"),
    .testTarget(
      name: "PasteboardTests",
      dependencies: ["UniformTypeIdentifiers", "CoreTransferable", "Pasteboard", "PasteboardSaveFixture"]
    ),
    .testTarget(
      name: "X11SelectionsTests",
      dependencies: [
        "X11Selections", "Pasteboard", "UniformTypeIdentifiers", "CoreTransferable",
        "FerryTestSupport",
      ]
    ),
    .testTarget(
      name: "CoreTransferableTests",
      dependencies: ["UniformTypeIdentifiers", "CoreTransferable"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
