import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// A declaration whose parent is declared only later — in a later file or in code — conforms
/// to it, and through it to its ancestors, from the moment the parent is declared.
@Suite("Conformance resolved when asked")
struct LazyConformanceTests {
  static let child = "org.ferrytests.lazy.child"
  static let parent = "org.ferrytests.lazy.parent"

  func writeChildAndParent(in directory: String) throws -> (child: String, parent: String) {
    let child = try write(
      try declarationJSON(exported: [entry(Self.child, conformsTo: [Self.parent])]),
      to: "child/child.json", in: directory)
    let parent = try write(
      try declarationJSON(exported: [entry(Self.parent, conformsTo: ["public.image"])]),
      to: "parent/parent.json", in: directory)
    return (child, parent)
  }

  @Test func parentInALaterFile() throws {
    try withTemporaryDirectory { directory in
      let files = try writeChildAndParent(in: directory)
      let registry = privateRegistry()
      let problems = registry.loadDeclarations(from: files.child, allowingExampleNamespace: false)
      #expect(
        problems.map(\.problem) == [.unknownParent(identifier: Self.child, parent: Self.parent)])
      #expect(registry.diagnostics.map(\.problem) == problems.map(\.problem))
      #expect(registry.record(Self.child)?.parentKeys == [Self.parent])
      #expect(!registry.conforms(Self.child, to: "public.image"))

      #expect(
        registry.loadDeclarations(from: files.parent, allowingExampleNamespace: false).isEmpty)
      #expect(registry.conforms(Self.child, to: Self.parent))
      #expect(registry.conforms(Self.child, to: "public.image"))
      #expect(registry.conforms(Self.child, to: "public.data"))
      #expect(registry.diagnostics.isEmpty)
    }
  }

  @Test func parentInAnEarlierFile() throws {
    try withTemporaryDirectory { directory in
      let files = try writeChildAndParent(in: directory)
      let registry = privateRegistry()
      #expect(
        registry.loadDeclarations(from: files.parent, allowingExampleNamespace: false).isEmpty)
      #expect(registry.loadDeclarations(from: files.child, allowingExampleNamespace: false).isEmpty)
      #expect(registry.conforms(Self.child, to: "public.image"))
      #expect(registry.diagnostics.isEmpty)
    }
  }

  @Test(arguments: [false, true])
  func parentInALaterSearchPathDirectoryOrAnEarlierOne(parentFirst: Bool) throws {
    try withTemporaryDirectory { directory in
      _ = try writeChildAndParent(in: directory)
      let directories = [directory + "/parent", directory + "/child"]
      let registry = privateRegistry(
        declarationDirectories: parentFirst ? directories : directories.reversed())
      #expect(registry.conforms(Self.child, to: "public.image"))
      #expect(registry.diagnostics.isEmpty)
    }
  }

  /// The standard directories load before any `UTType(exportedAs:)` runs.
  @Test func parentDeclaredInCodeAfterTheFileLoaded() throws {
    try withTemporaryDirectory { directory in
      let files = try writeChildAndParent(in: directory)
      let registry = privateRegistry(declarationDirectories: [directory + "/child"])
      #expect(registry.record(Self.child) != nil)
      #expect(!registry.conforms(Self.child, to: "public.audio"))
      registry.declareInCode(identifier: Self.parent, parent: "public.audio", exported: true)
      #expect(registry.conforms(Self.child, to: "public.audio"))
      #expect(registry.diagnostics.isEmpty)
      // A file declaring the parent later takes over from the code, as files do.
      _ = registry.loadDeclarations(from: files.parent, allowingExampleNamespace: false)
      #expect(registry.conforms(Self.child, to: "public.image"))
      #expect(!registry.conforms(Self.child, to: "public.audio"))
    }
  }

  @Test func sharedRegistryThroughUTType() throws {
    try withTemporaryDirectory { directory in
      let child = "org.ferrytests.lazy.shared-child"
      let parent = "org.ferrytests.lazy.shared-parent"
      let path = try write(
        try declarationJSON(imported: [entry(child, conformsTo: [parent, "public.data"])]),
        to: "child.json", in: directory)
      _ = UTType.loadDeclarations(from: path)
      let type = try #require(UTType(child))
      #expect(!type.conforms(to: .audio))
      #expect(UTType.declarationDiagnostics.contains { $0.file == path })

      let parentType = UTType(exportedAs: parent, conformingTo: .audio)
      #expect(type.conforms(to: parentType))
      #expect(type.conforms(to: .audio))
      #expect(type.supertypes.contains(parentType))
      #expect(parentType.isSupertype(of: type))
      #expect(!UTType.declarationDiagnostics.contains { $0.file == path })
    }
  }

  @Test func aCycleClosedByCodeIsBroken() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry()
      let path = try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.lazy.cycle-a", conformsTo: ["org.ferrytests.lazy.cycle-b"])
        ]), to: "a.json", in: directory)
      _ = registry.loadDeclarations(from: path, allowingExampleNamespace: false)
      registry.declareInCode(
        identifier: "org.ferrytests.lazy.cycle-b", parent: "org.ferrytests.lazy.cycle-a",
        exported: true)
      #expect(
        registry.diagnostics.contains {
          if case .conformanceCycle = $0.problem { return true }
          return false
        })
      let record = try #require(registry.record("org.ferrytests.lazy.cycle-a"))
      #expect(!record.ancestorKeys.contains(record.key))
    }
  }
}
