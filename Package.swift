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
    .library(name: "FerryClient", targets: ["FerryClient"]),
    .library(name: "FerryBroker", targets: ["FerryBroker"]),
    .executable(name: "ferry", targets: ["ferry"]),
    .executable(name: "pbcopy", targets: ["pbcopy"]),
    .executable(name: "pbpaste", targets: ["pbpaste"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
  ],
  targets: [
    // glibc's spawn extensions and wait-status macros, which Swift cannot import.
    .target(name: "CFerrySystem"),
    .target(
      name: "FerrySystem",
      dependencies: ["CFerrySystem", .product(name: "SystemPackage", package: "swift-system")]),
    .target(name: "JSONText"),
    .target(name: "UniformTypeIdentifiers", dependencies: ["JSONText", "FerrySystem"]),
    .target(name: "DetachedThreads"),
    .target(name: "CoreTransferable", dependencies: ["UniformTypeIdentifiers", "FerrySystem"]),
    .target(
      name: "Pasteboard", dependencies: ["UniformTypeIdentifiers", "CoreTransferable", "DetachedThreads", "FerrySystem"]),
    .systemLibrary(
      name: "CX11", pkgConfig: "x11 xfixes",
      providers: [.apt(["libx11-dev", "libxfixes-dev"])]),
    .target(
      name: "X11Selections",
      dependencies: [
        "CX11", "UniformTypeIdentifiers", "CoreTransferable", "Pasteboard", "DetachedThreads", "FerrySystem",
      ]),
    .target(name: "FerryClient", dependencies: ["JSONText", "FerrySystem"]),
    // glibc's <malloc.h> (mallopt, malloc_trim) for the daemon's HeapRelease.
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    .target(
      name: "FerryBroker",
      dependencies: [
        "FerryClient", "Pasteboard", "X11Selections", "UniformTypeIdentifiers", "CoreTransferable", "CMalloc",
        "FerrySystem",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .target(
      name: "FerryCommandLine",
      dependencies: [
        "FerryClient", "X11Selections", "Pasteboard", "UniformTypeIdentifiers", "FerrySystem",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .target(name: "FerryTestSupport", dependencies: ["FerrySystem"]),
    .executableTarget(name: "KeeperProbe", dependencies: ["FerryTestSupport"], path: "Sources/KeeperProbe"),
    .executableTarget(
      name: "ferry",
      dependencies: [
        "UniformTypeIdentifiers", "FerryCommandLine", "FerryBroker", "FerryClient", "X11Selections",
        "Pasteboard",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "pbcopy",
      dependencies: ["FerryCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .executableTarget(
      name: "pbpaste",
      dependencies: [
        "FerryCommandLine", "UniformTypeIdentifiers",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "UTTypeBenchmark",
      dependencies: ["UniformTypeIdentifiers"],
      path: "Benchmarks/UTTypeBenchmark"
    ),
    .executableTarget(
      name: "ProfileCopy",
      dependencies: ["FerryClient", "CoreTransferable", "UniformTypeIdentifiers"],
      path: "Examples/ProfileCopy"
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
    .testTarget(name: "FerrySystemTests", dependencies: ["FerrySystem"]),
    .testTarget(
      name: "UniformTypeIdentifiersTests",
      dependencies: ["UniformTypeIdentifiers"]
    ),
    .executableTarget(name: "PasteboardSaveFixture", dependencies: ["Pasteboard", "UniformTypeIdentifiers"], path: "Sources/PasteboardSaveFixture"),
    .testTarget(
      name: "PasteboardTests",
      dependencies: [
        "UniformTypeIdentifiers", "CoreTransferable", "Pasteboard", "PasteboardSaveFixture", "DetachedThreads",
        "FerryTestSupport",
      ]
    ),
    .testTarget(
      name: "X11SelectionsTests",
      dependencies: [
        "X11Selections", "Pasteboard", "UniformTypeIdentifiers", "CoreTransferable",
        "FerryTestSupport",
      ]
    ),
    .testTarget(
      name: "FerryBrokerTests",
      dependencies: [
        "FerryBroker", "FerryClient", "JSONText", "Pasteboard", "UniformTypeIdentifiers", "FerryTestSupport",
        "pbcopy", "pbpaste", "ferry", "KeeperProbe",
      ]
    ),
    .testTarget(
      name: "CoreTransferableTests",
      dependencies: ["UniformTypeIdentifiers", "CoreTransferable"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
