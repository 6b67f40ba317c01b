// swift-tools-version: 6.1
// Ferry's runnable examples, a package of their own so that the root package's `swift build`
// does not compile them. They use the libraries by their product names, as a package of
// someone else's would; Scripts/test builds them and the tests run two of them
// (ExampleProgramTests).
//
//   swift build --package-path Examples --scratch-path .build-examples
//   swift run --package-path Examples ProfileCopy "Juan Chavez" "Ceramicist"
//
// Examples/UsingFerry is a separate package again: it depends on Ferry as its README shows.
import PackageDescription

let package = Package(
  name: "FerryExamples",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Ferry", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "ProfileCopy",
      dependencies: [
        .product(name: "FerryClient", package: "Ferry"),
        .product(name: "CoreTransferable", package: "Ferry"),
        .product(name: "UniformTypeIdentifiers", package: "Ferry"),
      ],
      path: "ProfileCopy"),
    .executableTarget(
      name: "RegisterProfileType",
      dependencies: [
        .product(name: "FerryClient", package: "Ferry"),
        .product(name: "CoreTransferable", package: "Ferry"),
        .product(name: "UniformTypeIdentifiers", package: "Ferry"),
      ],
      path: "RegisterProfileType"),
    .executableTarget(
      name: "HistoryReader", dependencies: [.product(name: "FerryClient", package: "Ferry")],
      path: "HistoryReader"),
    .executableTarget(
      name: "TransferableExample",
      dependencies: [
        .product(name: "UniformTypeIdentifiers", package: "Ferry"),
        .product(name: "CoreTransferable", package: "Ferry"),
      ],
      path: "TransferableExample"),
  ],
  swiftLanguageModes: [.v6]
)
