// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Ferry",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
    .library(name: "CoreTransferable", targets: ["CoreTransferable"]),
    .library(name: "Pasteboard", targets: ["Pasteboard"]),
    .library(name: "SelectionBackendCore", targets: ["SelectionBackendCore"]),
    .library(name: "SelectionBackendEmbedded", targets: ["SelectionBackendEmbedded"]),
    .library(name: "X11Selections", targets: ["X11Selections"]),
    .library(name: "WaylandSelections", targets: ["WaylandSelections"]),
    .library(name: "DisplayServers", targets: ["DisplayServers"]),
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
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    // `swift package generate-documentation` for Scripts/docs; no target depends on it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
  ],
  // Bottom layer first: a target depends only on targets above it. Each target's
  // dependencies are the modules its sources import (Scripts/check-imports checks it);
  // docs/ARCHITECTURE.md says what each module is for.
  targets: [
    // System C modules: what Swift cannot import from the C libraries by itself.
    // glibc's spawn extensions and wait-status macros, which Swift cannot import.
    .target(name: "CFerrySystem"),
    .systemLibrary(
      name: "CX11", pkgConfig: "x11 xfixes",
      providers: [.apt(["libx11-dev", "libxfixes-dev"])]),
    // OpenSSL's libcrypto (Debian's libssl-dev) for the history's SHA-256: swift-crypto's
    // Crypto would build BoringSSL from source, two minutes of every clean build.
    .systemLibrary(
      name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    // SQLite with FTS5 (Debian's libsqlite3-dev), for the history's database.
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    // libyaml (Debian's libyaml-dev), the YAML parser the configuration file is read with.
    .systemLibrary(
      name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]),
    // glibc's <malloc.h> (mallopt, malloc_trim) for the daemon's HeapRelease.
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    // The Swift runtime's global-executor hook, for the daemon's EventLoopGlobalExecutor.
    .systemLibrary(name: "CConcurrencyHooks", path: "Sources/CConcurrencyHooks"),
    // Debian's image codecs (libpng, libjpeg-turbo, libtiff, giflib, libwebp), for the
    // broker's image converters; their static libraries' own dependencies named, as the release
    // build links everything statically (libtiff's: Lerc, which is C++, JBIG, zstd, xz, deflate).
    .target(
      name: "CImageCodecs",
      linkerSettings: [
        .linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("tiff"),
        .linkedLibrary("gif"), .linkedLibrary("webp"), .linkedLibrary("Lerc"),
        .linkedLibrary("jbig"), .linkedLibrary("zstd"), .linkedLibrary("lzma"),
        .linkedLibrary("deflate"), .linkedLibrary("z"), .linkedLibrary("stdc++"),
      ]),

    // The system layer: descriptors, files, processes, threads, locks, clocks.
    .target(
      name: "FerrySystem",
      dependencies: ["CFerrySystem", .product(name: "SystemPackage", package: "swift-system")]),

    // Small leaf libraries: JSON text, and "did you mean" suggestions.
    .target(name: "JSONText"),
    .target(name: "NearMiss"),

    // The Apple-shaped libraries: types, Transferable, pasteboards.
    .target(name: "UniformTypeIdentifiers", dependencies: ["FerrySystem", "JSONText"]),
    .target(name: "CoreTransferable", dependencies: ["FerrySystem", "UniformTypeIdentifiers"]),
    .target(
      name: "Pasteboard",
      dependencies: ["CoreTransferable", "FerrySystem", "UniformTypeIdentifiers"]),
    // Images converted on request (PNG, JPEG, BMP, TIFF, GIF, WebP): the broker registers it;
    // pbcopy and pbpaste never link it (docs/CONVERTERS.md).
    .target(
      name: "ImageConversion",
      dependencies: ["CImageCodecs", "FerrySystem", "Pasteboard", "UniformTypeIdentifiers"]),

    // The seam between the broker and a display server's selections, in pure Swift (its
    // protocol `SelectionBackend` in the module SelectionBackendCore, as NIOCore holds NIO's),
    // and an embedded backend for tests (the NIOEmbedded of this house):
    // docs/SELECTION-BACKENDS.md.
    .target(name: "SelectionBackendCore", dependencies: ["Pasteboard", "UniformTypeIdentifiers"]),
    .target(
      name: "SelectionBackendEmbedded",
      dependencies: ["FerrySystem", "Pasteboard", "SelectionBackendCore", "UniformTypeIdentifiers"]),

    // The broker's protocol, and the client library pbcopy, pbpaste and other programs use.
    .target(name: "FerryProtocol", dependencies: ["FerrySystem", "JSONText"]),
    .target(name: "FerryClient", dependencies: ["FerryProtocol", "FerrySystem", "JSONText"]),

    // The persistent history: SQLite (Debian's libsqlite3-dev) through a small layer of its
    // own (GRDB's Foundation brought ICU into `ferry`). Never a dependency of pbcopy or pbpaste.
    .target(
      name: "ClipboardHistory",
      dependencies: ["CLibCrypto", "CSQLite", "FerrySystem", "Pasteboard"]),

    // X11: the one core over Xlib (the only importer of CX11), the selections (owner, reader,
    // XDND, and the seam's X11 backend), and the drag and drop windows.
    .target(name: "X11Core", dependencies: ["CX11", "FerrySystem"]),
    .target(
      name: "X11Selections",
      dependencies: [
        "FerrySystem", "Pasteboard", "SelectionBackendCore", "UniformTypeIdentifiers", "X11Core",
      ]),
    // The windows `ferry drag` and `ferry drop` show, on X11Selections' connection and thread.
    .target(
      name: "DragWindows",
      dependencies: ["Pasteboard", "RasterDrawing", "UniformTypeIdentifiers", "X11Selections"]),

    // Wayland: the seam's backend on the data-control protocols, speaking the wire protocol
    // itself (the release tools are static; Debian's libwayland-client is shared only).
    .target(
      name: "WaylandSelections",
      dependencies: [
        "FerrySystem", "Pasteboard", "SelectionBackendCore", "UniformTypeIdentifiers",
      ]),

    // The table of display servers (Wayland, X11) the broker and the tools consult: a new
    // backend is a module above and a row here.
    .target(
      name: "DisplayServers",
      dependencies: ["SelectionBackendCore", "WaylandSelections", "X11Selections"]),

    // The daemon's configuration file (YAML, read with libyaml), environment and flags. Never
    // a dependency of pbcopy or pbpaste.
    .target(name: "FerryConfiguration", dependencies: ["CYAML", "FerrySystem", "NearMiss"]),

    // The broker daemon.
    .target(
      name: "FerryBroker",
      dependencies: [
        "CConcurrencyHooks", "CMalloc", "ClipboardHistory", "DisplayServers", "FerryProtocol",
        "FerrySystem", "ImageConversion", "Pasteboard", "SelectionBackendCore",
        "UniformTypeIdentifiers",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),

    // One clipboard across machines (`ferry sync`): the link's messages and the engine, over
    // the broker's socket through FerryClient (docs/SYNC.md).
    // Client-side drawing for windows without a server font (Wayland): X's "fixed" as bitmaps.
    .target(name: "RasterDrawing"),
    // Client-drawn windows on Wayland (issue 40): their pixel buffers so far.
    .target(name: "WaylandWindows", dependencies: ["FerrySystem", "RasterDrawing"]),
    .target(
      name: "FerrySync",
      dependencies: ["CLibCrypto", "FerryClient", "FerryProtocol", "FerrySystem"]),

    // The command-line tools' shared code: copy, paste, options, exit statuses.
    .target(
      name: "FerryCommandLine",
      dependencies: [
        "DisplayServers", "FerryClient", "FerrySystem", "NearMiss", "Pasteboard",
        "SelectionBackendCore", "UniformTypeIdentifiers", "WaylandSelections", "X11Selections",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // The executables.
    .executableTarget(
      name: "ferry",
      dependencies: [
        "ClipboardHistory", "DragWindows", "FerryBroker", "FerryClient", "FerryCommandLine",
        "FerryConfiguration", "FerryProtocol", "FerrySync", "FerrySystem", "ImageConversion",
        "JSONText", "Pasteboard", "UniformTypeIdentifiers", "X11Selections",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // pbcopy and pbpaste on their own: the commands are FerryCommandLine's, which `ferry` also
    // runs when it is run by their names (Scripts/install installs them as links to `ferry`).
    .executableTarget(name: "pbcopy", dependencies: ["FerryCommandLine"]),
    .executableTarget(name: "pbpaste", dependencies: ["FerryCommandLine"]),

    // Test support: the tests' Xvfb, peers, deadlines and process keeper, and the fixture
    // processes the tests start (Tests/Fixtures).
    .target(name: "FerryTestSupport", dependencies: ["FerrySystem"]),
    // Swift Testing traits the test targets share: skipping a test whose peer is missing.
    .target(name: "FerryTestTraits", dependencies: ["FerryTestSupport"]),
    // The selection-backend contract: the checks every SelectionBackend runs, against a
    // driver per display server (docs/SELECTION-BACKENDS.md). Only test targets depend on it.
    .target(
      name: "SelectionBackendContract",
      dependencies: [
        "FerryTestSupport", "Pasteboard", "SelectionBackendCore", "UniformTypeIdentifiers",
      ]),
    // libwayland-client and the data-control protocols' glue from wayland-scanner
    // (Scripts/generate-wayland-glue), for the tests' own probe: an independent client that
    // checks the compositor and the protocols as libwayland sees them.
    .target(name: "CWaylandDataControl", linkerSettings: [.linkedLibrary("wayland-client")]),
    .executableTarget(
      name: "KeeperProbe", dependencies: ["FerryTestSupport"], path: "Tests/Fixtures/KeeperProbe"),
    .executableTarget(
      name: "HistoryFixture", dependencies: ["ClipboardHistory"],
      path: "Tests/Fixtures/HistoryFixture"),
    .executableTarget(
      name: "ThirdBackendBroker",
      dependencies: [
        "DisplayServers", "FerryBroker", "SelectionBackendCore", "SelectionBackendEmbedded",
      ],
      path: "Tests/Fixtures/ThirdBackendBroker"),
    .executableTarget(
      name: "PasteboardSaveFixture", dependencies: ["Pasteboard", "UniformTypeIdentifiers"],
      path: "Tests/Fixtures/PasteboardSaveFixture"),

    // The tests, in the same order; an executable among a test target's dependencies is one
    // its tests run (built before them), not an import.
    .testTarget(name: "FerrySystemTests", dependencies: ["FerrySystem", "FerryTestSupport"]),
    .testTarget(
      name: "UniformTypeIdentifiersTests",
      dependencies: ["FerrySystem", "FerryTestSupport", "UniformTypeIdentifiers"]),
    .testTarget(
      name: "CoreTransferableTests",
      dependencies: [
        "CoreTransferable", "FerrySystem", "FerryTestSupport", "UniformTypeIdentifiers",
      ]),
    .testTarget(
      name: "PasteboardTests",
      dependencies: [
        "CMalloc", "CoreTransferable", "FerrySystem", "FerryTestSupport", "FerryTestTraits",
        "Pasteboard", "UniformTypeIdentifiers",
        "PasteboardSaveFixture",
      ]),
    .testTarget(
      name: "ImageConversionTests",
      dependencies: ["FerryTestSupport", "ImageConversion", "Pasteboard", "UniformTypeIdentifiers"]),
    .testTarget(
      name: "ClipboardHistoryTests",
      dependencies: ["ClipboardHistory", "FerryTestSupport", "Pasteboard", "HistoryFixture"]),
    .testTarget(
      name: "X11SelectionsTests",
      dependencies: [
        "CX11", "DragWindows", "FerrySystem", "FerryTestSupport", "FerryTestTraits", "Pasteboard",
        "SelectionBackendContract", "SelectionBackendCore", "UniformTypeIdentifiers",
        "X11Selections",
      ]),
    .testTarget(
      name: "WaylandSelectionsTests",
      dependencies: [
        "CWaylandDataControl", "FerryTestSupport", "FerryTestTraits", "Pasteboard",
        "SelectionBackendContract", "SelectionBackendCore",
        "UniformTypeIdentifiers",
        "WaylandSelections",
      ]),
    .testTarget(
      name: "DragWindowsTests",
      dependencies: [
        "DragWindows", "FerryTestSupport", "FerryTestTraits", "RasterDrawing", "X11Selections",
      ]),
    .testTarget(
      name: "WaylandWindowsTests",
      dependencies: ["FerryTestSupport", "RasterDrawing", "WaylandWindows"]),
    .testTarget(
      name: "RasterDrawingTests",
      dependencies: ["FerryTestSupport", "FerryTestTraits", "RasterDrawing", "X11Selections"]),
    .testTarget(
      name: "FerrySyncTests",
      dependencies: ["FerryProtocol", "FerrySync", "FerryTestSupport"]),
    .testTarget(name: "FerryConfigurationTests", dependencies: ["FerryConfiguration", "NearMiss"]),
    .testTarget(
      name: "FerryBrokerTests",
      dependencies: [
        "ClipboardHistory", "FerryBroker", "FerryClient", "FerryCommandLine", "FerryProtocol",
        "FerrySystem",
        "FerryTestSupport", "FerryTestTraits", "JSONText", "Pasteboard",
        "SelectionBackendContract", "SelectionBackendCore", "SelectionBackendEmbedded",
        "UniformTypeIdentifiers",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        "pbcopy", "pbpaste", "ferry", "KeeperProbe", "ThirdBackendBroker",
      ]),
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
        "FerryProtocol", "JSONText", "UniformTypeIdentifiers", "Pasteboard", "SelectionBackendCore",
        "X11Selections", "FerryConfiguration", "ImageConversion", "WaylandSelections", "FerrySync",
        "FerrySystem",
      ],
      path: "Fuzz/FerryFuzz")
  ]
}
