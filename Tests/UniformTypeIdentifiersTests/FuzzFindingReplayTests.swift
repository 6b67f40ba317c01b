import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// Every input kept in `Fuzz/Findings/` (docs/FUZZING.md), replayed as a plain test: what the
/// parser says of it is one line. `Scripts/fuzz --check` replays them under the fuzz targets'
/// invariants too.
@Suite struct FuzzFindingReplayTests {
  static let findings = repositoryRoot.appendingPathComponent("Fuzz/Findings")

  /// The kept inputs of `target`, by file name.
  static func inputs(of target: String) throws -> [(name: String, contents: Data)] {
    let directory = findings.appendingPathComponent(target)
    return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
      ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
    }
  }

  /// The targets whose findings a test of this suite or another replays (image-tiff's:
  /// ImageFuzzFindingTests); a directory of findings for any other target fails here until a
  /// test reads it.
  static let replayed: Set<String> = ["declarations", "image-tiff"]

  @Test func everyDirectoryOfFindingsIsReplayed() throws {
    let directories = try FileManager.default.contentsOfDirectory(atPath: Self.findings.path)
    for directory in directories {
      #expect(
        Self.replayed.contains(directory), "Fuzz/Findings/\(directory) is replayed by no test")
    }
    #expect(!(try Self.inputs(of: "declarations")).isEmpty)
  }

  /// The 444-byte binary property list whose UTF-16 string ran past the end of the data:
  /// FoundationEssentials' decoder trapped on it (signal 4) in `ferry register`,
  /// `ferry type --declarations` and every later start of the broker.
  @Test func theUTF16StringPastTheEndIsOneMalformedLine() throws {
    let contents = try #require(
      try Self.inputs(of: "declarations").first {
        $0.name == "found-utf16-string-past-the-end.bplist"
      }
    ).contents
    #expect(contents.count == 444)
    let file = DeclarationFile(path: "crash.bplist", contents: contents)
    #expect(file.items.isEmpty)
    #expect(
      file.diagnostics.map(\.description) == [
        "crash.bplist: bad property list: object 15 at byte 236 runs past the end of the objects (226 bytes at byte 239)"
      ])
  }

  /// The same trap in 78 bytes: a UTF-16 string of 34 units whose 34 units fit in the 34
  /// bytes left before the offset table but whose 68 bytes run past the end of the data.
  /// swift-foundation's `BPlistScanner.scanUTF16BEString` compares the units, not the bytes,
  /// with the space left, and `BPlistMap.withBuffer` then traps on the region.
  @Test func theMinimalUTF16StringPastTheEndIsOneMalformedLine() throws {
    let contents = try #require(
      try Self.inputs(of: "declarations").first {
        $0.name == "found-utf16-string-past-the-end-minimal.bplist"
      }
    ).contents
    #expect(contents.count == 78)
    #expect(throws: PropertyTree.SyntaxError.self) { try PropertyTree.parsePropertyList(contents) }
    let file = DeclarationFile(path: "minimal.bplist", contents: contents)
    #expect(
      file.diagnostics.map(\.description) == [
        "minimal.bplist: bad property list: object 0 at byte 8 runs past the end of the objects (68 bytes at byte 11)"
      ])
  }

  @Test func everyDeclarationsFindingIsDiagnosedInOneLine() throws {
    for (name, contents) in try Self.inputs(of: "declarations") {
      let file = DeclarationFile(path: name, contents: contents)
      #expect(!file.diagnostics.isEmpty || !file.items.isEmpty, "\(name)")
      for diagnostic in file.diagnostics {
        #expect(!diagnostic.description.contains("\n"), "\(name): \(diagnostic)")
      }
    }
  }
}
