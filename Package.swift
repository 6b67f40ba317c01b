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
    .library(name: "DragWindows", targets: ["DragWindows"]),
    .library(name: "FerryProtocol", targets: ["FerryProtocol"]),
    .library(name: "FerryClient", targets: ["FerryClient"]),
    .library(name: "FerryBroker", targets: ["FerryBroker"]),
    .library(name: "ClipboardHistory", targets: ["ClipboardHistory"]),
    // For Benchmarks/ (a package of its own): the system layer and the tests' Xvfb, peers and
    // deadlines, which X11Benchmark and HistoryBenchmark run on. Not API for other packages.
    .library(name: "FerrySystem", targets: ["FerrySystem"]),
    .library(name: "FerryTestSupport", targets: ["FerryTestSupport"]),
    .executable(name: "ferry", targets: ["ferry"]),
    .executable(name: "pbcopy", targets: ["pbcopy"]),
    .executable(name: "pbpaste", targets: ["pbpaste"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    // `swift package generate-documentation` for Scripts/docs; no target depends on it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
  ],
  targets: [
    // glibc's spawn extensions and wait-status macros, which Swift cannot import.
    .target(name: "CFerrySystem"),
    .target(
      name: "FerrySystem",
      dependencies: ["CFerrySystem", .product(name: "SystemPackage", package: "swift-system")]),
    .target(name: "JSONText"),
    .target(name: "NearMiss"),
    .target(name: "UniformTypeIdentifiers", dependencies: ["JSONText", "FerrySystem"]),
    .target(name: "CoreTransferable", dependencies: ["UniformTypeIdentifiers", "FerrySystem"]),
    .target(
      name: "Pasteboard", dependencies: ["UniformTypeIdentifiers", "CoreTransferable", "FerrySystem"]),
    .systemLibrary(
      name: "CX11", pkgConfig: "x11 xfixes",
      providers: [.apt(["libx11-dev", "libxfixes-dev"])]),
    .target(
      name: "X11Selections",
      dependencies: [
        "CX11", "UniformTypeIdentifiers", "CoreTransferable", "Pasteboard", "FerrySystem",
      ]),
    // The windows `ferry drag` and `ferry drop` show, on X11Selections' connection and thread.
    .target(name: "DragWindows", dependencies: ["CX11", "X11Selections", "Pasteboard", "UniformTypeIdentifiers"]),
    .target(name: "FerryProtocol", dependencies: ["JSONText", "FerrySystem"]),
    .target(name: "FerryClient", dependencies: ["FerryProtocol", "JSONText", "FerrySystem"]),
    // OpenSSL's libcrypto (Debian's libssl-dev) for the history's SHA-256: swift-crypto's
    // Crypto would build BoringSSL from source, two minutes of every clean build.
    .systemLibrary(
      name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // The persistent history: SQLite (Debian's libsqlite3-dev) through GRDB. Never a
    // dependency of pbcopy or pbpaste.
    .target(
      name: "ClipboardHistory",
      dependencies: ["Pasteboard", "FerrySystem", "CLibCrypto", .product(name: "GRDB", package: "GRDB.swift")]),
    // glibc's <malloc.h> (mallopt, malloc_trim) for the daemon's HeapRelease.
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    // The Swift runtime's global-executor hook, for the daemon's EventLoopGlobalExecutor.
    .systemLibrary(name: "CConcurrencyHooks", path: "Sources/CConcurrencyHooks"),
    .target(
      name: "FerryBroker",
      dependencies: [
        "FerryProtocol", "Pasteboard", "X11Selections", "UniformTypeIdentifiers", "CoreTransferable", "CMalloc",
        "CConcurrencyHooks",
        "ClipboardHistory", "FerrySystem",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The daemon's configuration file (YAML, read with Yams), environment and flags. Never a
    // dependency of pbcopy or pbpaste.
    .target(name: "FerryConfiguration", dependencies: ["NearMiss", .product(name: "Yams", package: "Yams")]),
    .target(
      name: "FerryCommandLine",
      dependencies: [
        "NearMiss", "FerryClient", "X11Selections", "Pasteboard", "UniformTypeIdentifiers", "FerrySystem",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .target(name: "FerryTestSupport", dependencies: ["FerrySystem"]),
    .executableTarget(name: "KeeperProbe", dependencies: ["FerryTestSupport"], path: "Tests/Fixtures/KeeperProbe"),
    .executableTarget(
      name: "ferry",
      dependencies: [
        "UniformTypeIdentifiers", "FerryCommandLine", "FerryBroker", "FerryClient", "FerryProtocol", "X11Selections",
        "ClipboardHistory", "FerryConfiguration",
        "DragWindows",
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
    .testTarget(name: "FerrySystemTests", dependencies: ["FerrySystem", "FerryTestSupport"]),
    .testTarget(name: "FerryConfigurationTests", dependencies: ["FerryConfiguration", "NearMiss"]),
    .testTarget(
      name: "UniformTypeIdentifiersTests",
      dependencies: ["UniformTypeIdentifiers"]
    ),
    .executableTarget(name: "HistoryFixture", dependencies: ["ClipboardHistory"], path: "Tests/Fixtures/HistoryFixture"),
    .testTarget(
      name: "ClipboardHistoryTests",
      dependencies: [
        "ClipboardHistory", "HistoryFixture", "FerryTestSupport", "Pasteboard",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .executableTarget(name: "PasteboardSaveFixture", dependencies: ["Pasteboard", "UniformTypeIdentifiers"], path: "Tests/Fixtures/PasteboardSaveFixture"),
    .testTarget(
      name: "PasteboardTests",
      dependencies: [
        "UniformTypeIdentifiers", "CoreTransferable", "Pasteboard", "PasteboardSaveFixture",
        "FerryTestSupport", "CMalloc",
      ]
    ),
    .testTarget(
      name: "X11SelectionsTests",
      dependencies: [
        "X11Selections", "DragWindows", "Pasteboard", "UniformTypeIdentifiers", "CoreTransferable",
        "FerryTestSupport",
      ]
    ),
    .testTarget(name: "DragWindowsTests", dependencies: ["DragWindows"]),
    .testTarget(
      name: "FerryBrokerTests",
      dependencies: [
        "FerryBroker", "FerryClient", "FerryProtocol", "JSONText", "Pasteboard", "UniformTypeIdentifiers", "FerryTestSupport",
        "ClipboardHistory", "FerryCommandLine",
        "pbcopy", "pbpaste", "ferry", "KeeperProbe",
      ]
    ),
    .testTarget(
      name: "CoreTransferableTests",
      dependencies: ["UniformTypeIdentifiers", "CoreTransferable", "FerryTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The libFuzzer targets (docs/FUZZING.md): only when Scripts/fuzz builds them, into its own
// scratch path with `--sanitize=fuzzer --sanitize=address`; no other build sees them.
if Context.environment["FERRY_FUZZ_BUILD"] != nil {
  package.targets += [
    .executableTarget(
      name: "FerryFuzz",
      dependencies: [
        "FerryProtocol", "JSONText", "UniformTypeIdentifiers", "Pasteboard", "X11Selections",
        "FerryConfiguration",
      ],
      path: "Fuzz/FerryFuzz"),
  ]
}
