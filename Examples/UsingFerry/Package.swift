// swift-tools-version: 6.1
// A package of someone else's that uses Ferry's libraries, as README.md's "Using Ferry's
// libraries" shows. Scripts/test builds and runs it against this checkout, found at
// ../../.build-consumer/ferry (a link Scripts/test makes: the package's identity is the last
// component of its path, `ferry`, as it is for the GitHub URL).
import PackageDescription

let package = Package(
  name: "UsingFerry",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "../../.build-consumer/ferry")
  ],
  targets: [
    .executableTarget(
      name: "UsingFerry",
      dependencies: [
        .product(name: "UniformTypeIdentifiers", package: "ferry"),
        .product(name: "CoreTransferable", package: "ferry"),
        .product(name: "Pasteboard", package: "ferry"),
      ])
  ]
)
