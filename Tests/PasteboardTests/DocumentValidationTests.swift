import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// Damaged and hostile documents: each is refused with an error naming the problem, and
/// opening it changes nothing on disk.
@Suite struct DocumentValidationTests {
  /// One way to damage a valid package, and what the error must say.
  struct Damage: Sendable, CustomTestStringConvertible {
    var name: String
    var expected: String
    var apply: @Sendable (URL) throws -> Void

    var testDescription: String { name }
  }

  /// Edits the first representation entry of item `item`.
  static func editRepresentation(
    _ package: URL, item: Int = 0, index: Int = 0, _ edit: (inout [String: Any]) -> Void
  ) throws {
    var manifest = try DocumentTesting.manifestObject(of: package)
    var items = manifest["items"] as! [[String: Any]]
    var representations = items[item]["representations"] as! [[String: Any]]
    edit(&representations[index])
    items[item]["representations"] = representations
    manifest["items"] = items
    try DocumentTesting.writeManifestObject(manifest, to: package)
  }

  static func editItem(_ package: URL, _ edit: (inout [String: Any]) -> Void) throws {
    var manifest = try DocumentTesting.manifestObject(of: package)
    var items = manifest["items"] as! [[String: Any]]
    edit(&items[0])
    manifest["items"] = items
    try DocumentTesting.writeManifestObject(manifest, to: package)
  }

  static func replaceManifest(_ package: URL, with text: String) throws {
    try Data(text.utf8).write(to: package.appendingPathComponent("manifest.json"))
  }

  static let damages: [Damage] = [
    Damage(name: "manifest is not JSON", expected: "manifest.json is not valid JSON") {
      try replaceManifest($0, with: "{ this is not json")
    },
    Damage(name: "manifest is truncated", expected: "manifest.json is not valid JSON") {
      let url = $0.appendingPathComponent("manifest.json")
      let data = try Data(contentsOf: url)
      try data.prefix(data.count / 2).write(to: url)
    },
    Damage(name: "manifest is empty", expected: "manifest.json is not valid JSON") {
      try replaceManifest($0, with: "")
    },
    Damage(
      name: "manifest is a JSON array", expected: "manifest.json is malformed: top level: expected"
    ) {
      try replaceManifest($0, with: "[1, 2]")
    },
    Damage(name: "manifest is missing", expected: "manifest.json is missing") {
      try FileManager.default.removeItem(at: $0.appendingPathComponent("manifest.json"))
    },
    Damage(name: "manifest is a directory", expected: "manifest.json is not a regular file") {
      let url = $0.appendingPathComponent("manifest.json")
      try FileManager.default.removeItem(at: url)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    },
    Damage(name: "manifest is too large", expected: "MiB limit") {
      let url = $0.appendingPathComponent("manifest.json")
      try DocumentTesting.writeLargeFile(at: url, size: DocumentManifest.maximumSize + 1)
    },
    Damage(name: "version is newer", expected: "unsupported version 2 (this build reads version 1)")
    {
      var manifest = try DocumentTesting.manifestObject(of: $0)
      manifest["version"] = 2
      try DocumentTesting.writeManifestObject(manifest, to: $0)
    },
    Damage(name: "version is absent", expected: "manifest.json has no version") {
      var manifest = try DocumentTesting.manifestObject(of: $0)
      manifest["version"] = nil
      try DocumentTesting.writeManifestObject(manifest, to: $0)
    },
    Damage(name: "items are absent", expected: "manifest.json is malformed: items is missing") {
      var manifest = try DocumentTesting.manifestObject(of: $0)
      manifest["items"] = nil
      try DocumentTesting.writeManifestObject(manifest, to: $0)
    },
    Damage(
      name: "a byte count is text",
      expected: "items[0].representations[0].byteCount: expected Int"
    ) {
      try editRepresentation($0) { $0["byteCount"] = "22" }
    },
    Damage(
      name: "a named file is missing", expected: "0-1.txt is missing (item 0, representation 1)"
    ) {
      try FileManager.default.removeItem(at: $0.appendingPathComponent("0-1.txt"))
    },
    Damage(name: "a file is longer", expected: "0-1.txt is 5 bytes, the manifest says 4") {
      try Data("Juan!".utf8).write(to: $0.appendingPathComponent("0-1.txt"))
    },
    Damage(name: "a file is truncated", expected: "1-0.png is 2 bytes, the manifest says 4") {
      try Data([0x89, 0x50]).write(to: $0.appendingPathComponent("1-0.png"))
    },
    Damage(name: "a file is a directory", expected: "0-1.txt is not a regular file") {
      let url = $0.appendingPathComponent("0-1.txt")
      try FileManager.default.removeItem(at: url)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    },
    Damage(name: "a file is a symbolic link out", expected: "0-1.txt is not a regular file") {
      let url = $0.appendingPathComponent("0-1.txt")
      let outside = $0.deletingLastPathComponent().appendingPathComponent("outside.txt")
      try Data("Juan".utf8).write(to: outside)
      try FileManager.default.removeItem(at: url)
      try FileManager.default.createSymbolicLink(at: url, withDestinationURL: outside)
    },
    Damage(name: "a type is not an identifier", expected: "'not a type!' is not a type identifier")
    {
      try editRepresentation($0) { $0["type"] = "not a type!" }
    },
    Damage(name: "a type is listed twice", expected: "item 0 lists public.json twice") {
      try editRepresentation($0, index: 1) { $0["type"] = "public.json" }
    },
    Damage(
      name: "a file name climbs out", expected: "file name '../outside.txt' leaves the package"
    ) {
      try Data("Juan".utf8).write(
        to: $0.deletingLastPathComponent().appendingPathComponent("outside.txt"))
      try editRepresentation($0, index: 1) { $0["file"] = "../outside.txt" }
    },
    Damage(name: "a file name is ..", expected: "file name '..' leaves the package") {
      try editRepresentation($0, index: 1) { $0["file"] = ".." }
    },
    Damage(
      name: "a file name is absolute", expected: "file name '/etc/hostname' leaves the package"
    ) {
      try editRepresentation($0, index: 1) { $0["file"] = "/etc/hostname" }
    },
    Damage(
      name: "a file name has a directory", expected: "file name 'sub/0-1.txt' leaves the package"
    ) {
      try editRepresentation($0, index: 1) { $0["file"] = "sub/0-1.txt" }
    },
    Damage(name: "a file name is hidden", expected: "file name '.0-1.txt' is hidden") {
      try editRepresentation($0, index: 1) { $0["file"] = ".0-1.txt" }
    },
    Damage(
      name: "a file name is the manifest", expected: "file name 'manifest.json' is the manifest's"
    ) {
      try editRepresentation($0, index: 1) { $0["file"] = "manifest.json" }
    },
    Damage(
      name: "a file is named twice", expected: "0-0.json is named twice (item 1, representation 0)"
    ) {
      try editRepresentation($0, item: 1) {
        $0["file"] = "0-0.json"
        $0["byteCount"] = 22
      }
    },
    Damage(name: "an option is unknown", expected: "item 0 has an unknown option 'sparkly'") {
      try editItem($0) { $0["options"] = ["transient", "sparkly"] }
    },
    Damage(
      name: "a date is unreadable", expected: "item 0 has an unreadable expiration date 'soon'"
    ) {
      try editItem($0) { $0["expirationDate"] = "soon" }
    },
    Damage(name: "the package is a file", expected: "it is not a directory") {
      try FileManager.default.removeItem(at: $0)
      try Data("a file".utf8).write(to: $0)
    },
    Damage(name: "the package is missing", expected: "there is no document at this path") {
      try FileManager.default.removeItem(at: $0)
    },
  ]

  /// A valid package: two items, four representations, options and a date.
  static func makeValidPackage(at package: URL) async throws {
    let items = [
      PasteboardItem(
        representations: [
          .data(Data(#"{"name":"Juan Chavez"}"#.utf8), type: .json),
          .data(Data("Juan".utf8), type: .utf8PlainText),
        ],
        options: .transient, expirationDate: Date(timeIntervalSince1970: 2_000_000_000)),
      PasteboardItem(representations: [.data(Data([0x89, 0x50, 0x4E, 0x47]), type: .png)]),
    ]
    try await PasteboardDocument(items: items).save(to: package)
  }

  @Test(arguments: damages)
  func aDamagedDocumentIsRefusedWithItsProblemNamed(_ damage: Damage) async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await Self.makeValidPackage(at: package)
      // The undamaged package opens: the damage alone is what makes it fail.
      _ = try PasteboardDocument.open(at: package)
      try damage.apply(package)
      let before = try DocumentTesting.snapshot(of: directory)

      #expect {
        _ = try PasteboardDocument.open(at: package)
      } throws: { error in
        guard case PasteboardError.invalidDocument(let path, let reason) = error else {
          return false
        }
        return path == package.path && reason.contains(damage.expected)
      }

      #expect(try DocumentTesting.snapshot(of: directory) == before, "opening changed the files")
    }
  }

  @Test func theErrorIsOneLineNamingThePathAndTheProblem() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await Self.makeValidPackage(at: package)
      try FileManager.default.removeItem(at: package.appendingPathComponent("1-0.png"))

      let error = #expect(throws: PasteboardError.self) {
        try PasteboardDocument.open(at: package)
      }

      #expect(
        error?.description
          == "\(package.path): not a valid pasteboard document: 1-0.png is missing (item 1, representation 0)"
      )
    }
  }

  @Test func aDamagedDocumentCanBeSavedOver() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await Self.makeValidPackage(at: package)
      try Self.replaceManifest(package, with: "{ damaged")
      try Data("stray".utf8).write(to: package.appendingPathComponent("stray.bin"))
      let item = PasteboardItem(representations: [.data(Data("fresh".utf8), type: .utf8PlainText)])

      try await PasteboardDocument(items: [item]).save(to: package)

      let opened = try PasteboardDocument.open(at: package)
      #expect(try await opened.items[0].data(for: .utf8PlainText) == Data("fresh".utf8))
      #expect(DocumentTesting.names(in: package) == ["0-0.txt", "manifest.json"])
    }
  }

  @Test func dynamicAndCodeDeclaredTypesOpen() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      let dynamic = try #require(UTType(filenameExtension: "ferrydoctestzz"))
      #expect(dynamic.isDynamic)
      let declared = UTType(exportedAs: "org.ferry.test.document-type", conformingTo: .json)
      let item = PasteboardItem(representations: [
        .data(Data("{}".utf8), type: declared), .data(Data([7]), type: dynamic),
        .data(Data(), type: .transientMarker),
      ])
      try await PasteboardDocument(items: [item]).save(to: package)

      let opened = try PasteboardDocument.open(at: package)

      #expect(opened.items[0].storedTypes == [declared, dynamic, .transientMarker])
      #expect(opened.items[0].options.contains(.transient))
      #expect(DocumentTesting.names(in: package).contains("0-1.ferrydoctestzz"))
    }
  }

  /// A program's own type, declared in the process that saved but not in the one that
  /// opens (the manifest names it; nothing here declared it), opens as an imported type.
  @Test func aTypeNobodyHereDeclaredOpensAsImported() async throws {
    try await DocumentTesting.withScratchDirectory { directory in
      let package = directory.appendingPathComponent("clip.pasteboard")
      try await Self.makeValidPackage(at: package)
      let identifier = "org.ferry.test.never-declared-\(UUID().uuidString.prefix(8).lowercased())"
      #expect(UTType(identifier) == nil, "not declared in this process")
      try Self.editRepresentation(package) { $0["type"] = identifier }

      let opened = try PasteboardDocument.open(at: package)

      #expect(opened.items[0].storedTypes.first?.identifier == identifier)
    }
  }
}

/// Inputs the `manifest` fuzz target found (docs/FUZZING.md).
@Suite struct DocumentManifestFuzzFindingTests {
  /// `…00.005Z` read as a `Date` is a hair under 5 ms, and the ISO 8601 style cuts the
  /// fraction instead of rounding it: each save of a document that was opened moved its
  /// expiration dates one millisecond earlier.
  @Test(arguments: [
    "2025-06-01T12:00:00.005Z", "2025-06-01T12:00:00.001Z", "2025-06-01T12:00:00.999Z",
    "2025-06-01T12:00:00.000Z",
  ])
  func anExpirationDateSurvivesBeingReadAndWritten(_ text: String) throws {
    var written = text
    for _ in 0..<3 {
      let date = try #require(DocumentManifest.date(from: written))
      written = DocumentManifest.string(from: date)
      #expect(written == text)
    }
  }
}
