import Foundation
import Testing

@testable import UniformTypeIdentifiers

@Suite("Declaration diagnostics")
struct DeclarationDiagnosticTests {
  /// Loads `text` as `name` into a private registry and returns the registry and the problems.
  func load(
    _ text: String, as name: String, allowingExampleNamespace: Bool = false
  ) throws -> (TypeRegistry, [UTType.DeclarationDiagnostic], String) {
    try withTemporaryDirectory { directory in
      let path = try write(text, to: name, in: directory)
      let registry = privateRegistry()
      let problems = registry.loadDeclarations(
        from: path, allowingExampleNamespace: allowingExampleNamespace)
      return (registry, problems, path)
    }
  }

  func expectOne(
    _ problems: [UTType.DeclarationDiagnostic], file: String, entry: String?,
    _ problem: UTType.DeclarationDiagnostic.Problem, mentioning words: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
    guard let diagnostic = problems.first else { return }
    #expect(diagnostic.file == file, sourceLocation: sourceLocation)
    #expect(diagnostic.entry == entry, sourceLocation: sourceLocation)
    #expect(diagnostic.problem == problem, sourceLocation: sourceLocation)
    let text = diagnostic.description
    #expect(text.hasPrefix(file), sourceLocation: sourceLocation)
    if let entry { #expect(text.contains(entry), sourceLocation: sourceLocation) }
    for word in words { #expect(text.contains(word), "\(text)", sourceLocation: sourceLocation) }
    #expect(!text.contains("\n"), sourceLocation: sourceLocation)
  }

  @Test func badJSONIsOneDiagnosticAndOtherFilesLoad() throws {
    try withTemporaryDirectory { directory in
      let bad = try write(
        #"{"UTExportedTypeDeclarations": [{"UTTypeIdentifier": "org.ferrytests.badjson.lost"},"#,
        to: "a-bad.json", in: directory)
      try write(
        try declarationJSON(exported: [entry("org.ferrytests.badjson.good")]), to: "b-good.json",
        in: directory)
      let registry = privateRegistry()
      let problems = registry.loadDeclarations(from: directory, allowingExampleNamespace: false)
      #expect(problems.count == 1)
      #expect(problems.first?.file == bad)
      #expect(problems.first?.entry == nil)
      #expect(problems.first?.description.hasPrefix(bad + ": bad JSON") == true, "\(problems)")
      #expect(registry.record("org.ferrytests.badjson.good") != nil)
      #expect(registry.record("org.ferrytests.badjson.lost") == nil)
      #expect(registry.diagnostics == problems)
    }
  }

  @Test func badPropertyListIsOneDiagnostic() throws {
    let (registry, problems, path) = try load(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>UTExportedTypeDeclarations</key><array>
      <dict><key>UTTypeIdentifier</key><string>org.ferrytests.badplist.lost</string>
      </array></plist>
      """, as: "bad.plist")
    #expect(problems.count == 1)
    #expect(problems.first?.file == path)
    #expect(
      problems.first?.description.hasPrefix(path + ": bad property list") == true, "\(problems)")
    #expect(registry.record("org.ferrytests.badplist.lost") == nil)
  }

  @Test func unreadableAndShapelessFiles() throws {
    let registry = privateRegistry()
    let missing = "/nonexistent/ferrytests/types.json"
    expectOne(
      registry.loadDeclarations(from: missing, allowingExampleNamespace: false),
      file: missing, entry: nil, .unreadable)

    let (_, arrayProblems, arrayPath) = try load("[1, 2]", as: "array.json")
    expectOne(
      arrayProblems, file: arrayPath, entry: nil, .malformed("the top level is not a dictionary"))

    let (_, emptyProblems, emptyPath) = try load(#"{"Something": 1}"#, as: "empty.json")
    #expect(emptyProblems.count == 1)
    #expect(emptyProblems.first?.file == emptyPath)

    let (_, notArray, notArrayPath) = try load(
      #"{"UTExportedTypeDeclarations": {"a": 1}}"#, as: "shape.json")
    expectOne(
      notArray, file: notArrayPath, entry: "UTExportedTypeDeclarations",
      .malformed("is not an array"))
  }

  @Test func missingIdentifierSkipsOnlyThatEntry() throws {
    let (registry, problems, path) = try load(
      """
      {"UTExportedTypeDeclarations": [
        {"UTTypeIdentifier": "org.ferrytests.missing.before"},
        {"UTTypeConformsTo": ["public.data"], "UTTypeDescription": "nameless"},
        {"UTTypeIdentifier": "org.ferrytests.missing.after"}
      ],
      "UTImportedTypeDeclarations": [ {"UTTypeIdentifier": ""}, "not a dictionary" ]}
      """, as: "missing.json")
    #expect(problems.count == 3, "\(problems)")
    #expect(
      problems.filter { $0.problem == .missingIdentifier }.map(\.entry)
        == ["UTExportedTypeDeclarations[1]", "UTImportedTypeDeclarations[0]"])
    #expect(problems.contains { $0.entry == "UTImportedTypeDeclarations[1]" })
    #expect(problems.allSatisfy { $0.file == path && $0.description.hasPrefix(path + ": ") })
    #expect(registry.record("org.ferrytests.missing.before") != nil)
    #expect(registry.record("org.ferrytests.missing.after") != nil)
  }

  @Test(.timeLimit(.minutes(1)))
  func conformanceCycleIsBrokenAndLookupsReturn() throws {
    let (registry, problems, path) = try load(
      try declarationJSON(exported: [
        entry(
          "org.ferrytests.cycle.a", conformsTo: ["org.ferrytests.cycle.b", "public.data"],
          extensions: ["ftcyclea"]),
        entry("org.ferrytests.cycle.b", conformsTo: ["org.ferrytests.cycle.c", "public.data"]),
        entry("org.ferrytests.cycle.c", conformsTo: ["org.ferrytests.cycle.a", "public.data"]),
        entry(
          "org.ferrytests.cycle.self", conformsTo: ["org.ferrytests.cycle.self", "public.text"]),
        entry("org.ferrytests.cycle.bystander", conformsTo: ["org.ferrytests.cycle.c"]),
      ]), as: "cycle.json")
    #expect(problems.count == 2, "\(problems)")
    let cycles = problems.compactMap { diagnostic -> [String]? in
      if case .conformanceCycle(let names) = diagnostic.problem { return names }
      return nil
    }
    #expect(cycles.count == 2)
    #expect(problems.allSatisfy { $0.file == path && $0.entry != nil })
    #expect(
      cycles.contains {
        Set($0) == ["org.ferrytests.cycle.a", "org.ferrytests.cycle.b", "org.ferrytests.cycle.c"]
          && $0.first == $0.last
      })
    #expect(cycles.contains { $0 == ["org.ferrytests.cycle.self", "org.ferrytests.cycle.self"] })
    #expect(problems.contains { $0.description.contains("org.ferrytests.cycle.a → ") })

    // The lookups return at all: a cycle followed forever would hang, which the time limit
    // reports.
    for identifier in ["a", "b", "c", "self", "bystander"].map({ "org.ferrytests.cycle." + $0 }) {
      let record = try #require(registry.record(identifier), "\(identifier) still loads")
      #expect(!record.ancestorKeys.contains(record.key))
      #expect(registry.conforms(record.key, to: "public.data"), "\(identifier)")
      #expect(!registry.conforms(record.key, to: "public.image"))
    }
    #expect(registry.conforms("org.ferrytests.cycle.self", to: "public.text"))
    #expect(
      registry.preferredIdentifier("ftcyclea", .filenameExtension) == "org.ferrytests.cycle.a")
  }

  @Test(.timeLimit(.minutes(1)))
  func cycleClosedByALaterFileIsBroken() throws {
    try withTemporaryDirectory { directory in
      let first = try write(
        try declarationJSON(imported: [
          entry("org.ferrytests.latecycle.a", conformsTo: ["public.data"]),
          entry("org.ferrytests.latecycle.b", conformsTo: ["org.ferrytests.latecycle.a"]),
        ]), to: "first.json", in: directory)
      let second = try write(
        try declarationJSON(imported: [
          entry("org.ferrytests.latecycle.c", conformsTo: ["org.ferrytests.latecycle.b"])
        ]), to: "second.json", in: directory)
      // An exported declaration of `a` takes over the imported one and closes a → c → b → a.
      let third = try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.latecycle.a", conformsTo: ["org.ferrytests.latecycle.c"])
        ]), to: "third.json", in: directory)
      let registry = privateRegistry()
      #expect(registry.loadDeclarations(from: first, allowingExampleNamespace: false).isEmpty)
      #expect(registry.loadDeclarations(from: second, allowingExampleNamespace: false).isEmpty)
      #expect(registry.conforms("org.ferrytests.latecycle.c", to: "org.ferrytests.latecycle.a"))
      let problems = registry.loadDeclarations(from: third, allowingExampleNamespace: false)
      #expect(problems.count == 1, "\(problems)")
      if case .conformanceCycle(let names)? = problems.first?.problem {
        #expect(Set(names) == Set(["a", "b", "c"].map { "org.ferrytests.latecycle." + $0 }))
      } else {
        Issue.record("expected a conformance cycle, got \(problems)")
      }
      #expect([first, third].contains(problems.first?.file ?? ""))
      for identifier in ["a", "b", "c"].map({ "org.ferrytests.latecycle." + $0 }) {
        let record = try #require(registry.record(identifier))
        #expect(!record.ancestorKeys.contains(record.key))
      }
      #expect(registry.record("org.ferrytests.latecycle.a")?.layer == .exportedFile)
      #expect(registry.conforms("org.ferrytests.latecycle.a", to: "org.ferrytests.latecycle.c"))
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func cycleThroughCodeDeclarationReturnsPromptly() throws {
    try withTemporaryDirectory { directory in
      let registry = privateRegistry()
      registry.declareInCode(
        identifier: "org.ferrytests.codecycle.a", parent: "org.ferrytests.codecycle.b",
        exported: false)
      let path = try write(
        try declarationJSON(imported: [
          entry("org.ferrytests.codecycle.b", conformsTo: ["org.ferrytests.codecycle.a"])
        ]), to: "b.json", in: directory)
      _ = registry.loadDeclarations(from: path, allowingExampleNamespace: false)
      for identifier in ["org.ferrytests.codecycle.a", "org.ferrytests.codecycle.b"] {
        let record = try #require(registry.record(identifier))
        #expect(!record.ancestorKeys.contains(record.key))
        #expect(!registry.conforms(record.key, to: "public.image"))
      }
    }
  }

  @Test func unknownParentIsReportedAndKept() throws {
    let (registry, problems, path) = try load(
      try declarationJSON(exported: [
        entry(
          "org.ferrytests.unknownparent.child",
          conformsTo: ["public.image", "org.ferrytests.nobody"])
      ]), as: "parent.json")
    expectOne(
      problems, file: path,
      entry: "UTExportedTypeDeclarations[0] (org.ferrytests.unknownparent.child)",
      .unknownParent(
        identifier: "org.ferrytests.unknownparent.child", parent: "org.ferrytests.nobody"),
      mentioning: ["org.ferrytests.nobody"])
    // Kept, so that a later declaration of the parent counts (LazyConformanceTests).
    let record = try #require(registry.record("org.ferrytests.unknownparent.child"))
    #expect(record.parentKeys == ["public.image", "org.ferrytests.nobody"])
    #expect(registry.conforms(record.key, to: "public.image"))
  }

  @Test(arguments: [
    "org.ferrytests.café", "org.ferry tests.space", "org..ferrytests", "ferrytests",
    "org.ferrytests.", "org/ferrytests",
  ])
  func invalidIdentifierIsRefused(_ identifier: String) throws {
    let (registry, problems, path) = try load(
      try declarationJSON(exported: [entry(identifier), entry("org.ferrytests.invalid.neighbour")]),
      as: "invalid.json")
    expectOne(
      problems, file: path, entry: "UTExportedTypeDeclarations[0] (\(identifier))",
      .invalidIdentifier(identifier), mentioning: [identifier])
    #expect(registry.record("org.ferrytests.invalid.neighbour") != nil)
  }

  @Test(arguments: [
    ("public.ferrytests-reserved", "public", false),
    ("PUBLIC.ferrytests-shouting", "public", false),
    ("dyn.ferrytests", "dyn", false),
    ("com.apple.ferrytests", "com.apple", false),
    ("com.example.ferrytests", "com.example", false),
    ("public.ferrytests-reserved", "public", true),
    ("com.apple.ferrytests", "com.apple", true),
  ])
  func reservedNamespaceIsRefused(_ identifier: String, _ namespace: String, allowingExamples: Bool)
    throws
  {
    let (registry, problems, path) = try load(
      try declarationJSON(imported: [entry("org.ferrytests.reserved.neighbour"), entry(identifier)]
      ),
      as: "reserved.json", allowingExampleNamespace: allowingExamples)
    expectOne(
      problems, file: path, entry: "UTImportedTypeDeclarations[1] (\(identifier))",
      .reservedNamespace(identifier: identifier, namespace: namespace),
      mentioning: [identifier, namespace])
    #expect(registry.record(identifier) == nil || registry.record(identifier)?.layer == .system)
    #expect(registry.record("org.ferrytests.reserved.neighbour") != nil)
  }

  @Test func lookalikesOfReservedNamespacesAreAllowed() throws {
    let (registry, problems, _) = try load(
      try declarationJSON(exported: [
        entry("publicity.ferrytests"), entry("com.applesauce.ferrytests"),
        entry("org.example.ferrytests"),
      ]), as: "lookalike.json")
    #expect(problems.isEmpty, "\(problems)")
    #expect(registry.record("publicity.ferrytests") != nil)
    #expect(registry.record("com.applesauce.ferrytests") != nil)
  }

  @Test(arguments: ["com.adobe.pdf", "COM.ADOBE.PDF", "org.x.string", "org.webmproject.webp"])
  func systemTypeCannotBeRedeclared(_ identifier: String) throws {
    let (registry, problems, path) = try load(
      try declarationJSON(exported: [
        entry(identifier, conformsTo: ["public.audio"], extensions: ["ftredeclared"]),
        entry("org.ferrytests.system.neighbour"),
      ]), as: "system.json")
    expectOne(
      problems, file: path, entry: "UTExportedTypeDeclarations[0] (\(identifier))",
      .systemType(identifier), mentioning: [identifier])
    let record = try #require(registry.record(identifier))
    #expect(record.layer == .system)
    #expect(!registry.conforms(record.key, to: "public.audio"))
    #expect(registry.preferredIdentifier("ftredeclared", .filenameExtension) == nil)
    #expect(registry.record("org.ferrytests.system.neighbour") != nil)
  }

  @Test func badFieldsAreReportedOnce() throws {
    let (registry, problems, path) = try load(
      """
      {"UTExportedTypeDeclarations": [
        {"UTTypeIdentifier": "org.ferrytests.fields.conforms", "UTTypeConformsTo": 5},
        {"UTTypeIdentifier": "org.ferrytests.fields.tags", "UTTypeTagSpecification": {"public.filename-extension": 5}},
        {"UTTypeIdentifier": "org.ferrytests.fields.fine"}
      ]}
      """, as: "fields.json")
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.allSatisfy { $0.file == path })
    #expect(
      problems.map(\.entry) == [
        "UTExportedTypeDeclarations[0] (org.ferrytests.fields.conforms)",
        "UTExportedTypeDeclarations[1] (org.ferrytests.fields.tags)",
      ])
    #expect(registry.record("org.ferrytests.fields.fine") != nil)
  }

  @Test func nonStringListElementsAreReportedAndTheRestKept() throws {
    let (registry, problems, path) = try load(
      """
      {"UTExportedTypeDeclarations": [
        {"UTTypeIdentifier": "org.ferrytests.elements.parents", "UTTypeConformsTo": ["public.image", 5]},
        {"UTTypeIdentifier": "org.ferrytests.elements.tags",
         "UTTypeTagSpecification": {"public.filename-extension": ["ftelements", {"x": 1}]}}
      ]}
      """, as: "elements.json")
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.allSatisfy { $0.file == path })
    #expect(
      problems.map(\.entry) == [
        "UTExportedTypeDeclarations[0] (org.ferrytests.elements.parents)",
        "UTExportedTypeDeclarations[1] (org.ferrytests.elements.tags)",
      ])
    #expect(registry.conforms("org.ferrytests.elements.parents", to: "public.image"))
    #expect(
      registry.record("org.ferrytests.elements.tags")?.tags[.filenameExtension] == ["ftelements"])
  }

  @Test func parentsFromTheMIMEDatabaseAndDynamicTypesAreKnown() throws {
    try withTemporaryDirectory { directory in
      let mime = try MIMEDatabaseFixtureTests.writeDatabase(in: directory)
      let dynamic = ReferenceDyn.encode("?0=6:1=ftdynparent")
      let path = try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.parents.of-mime", conformsTo: [MIMEDatabaseFixtureTests.child]),
          entry("org.ferrytests.parents.of-dyn", conformsTo: [dynamic]),
          entry(
            "org.ferrytests.parents.of-missing-mime",
            conformsTo: ["org.freedesktop.mime.application.x-ferrytests-missing"]),
        ]), to: "parents.json", in: directory)
      let registry = privateRegistry(mimeDirectories: [mime])
      let problems = registry.loadDeclarations(from: path, allowingExampleNamespace: false)
      #expect(
        problems.map(\.problem) == [
          .unknownParent(
            identifier: "org.ferrytests.parents.of-missing-mime",
            parent: "org.freedesktop.mime.application.x-ferrytests-missing")
        ])
      #expect(
        registry.conforms("org.ferrytests.parents.of-mime", to: MIMEDatabaseFixtureTests.child))
      #expect(
        registry.conforms("org.ferrytests.parents.of-mime", to: MIMEDatabaseFixtureTests.base))
      #expect(registry.conforms("org.ferrytests.parents.of-mime", to: "public.data"))
      #expect(registry.conforms("org.ferrytests.parents.of-dyn", to: dynamic))
      #expect(registry.conforms("org.ferrytests.parents.of-dyn", to: "public.data"))
    }
  }

  @Test func sharedRegistryKeepsEveryDiagnostic() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.shared.diag", conformsTo: ["org.ferrytests.shared.nobody"])
        ]),
        to: "shared.json", in: directory)
      let problems = UTType.loadDeclarations(from: path)
      #expect(problems.count == 1)
      #expect(UTType.declarationDiagnostics.contains(problems[0]))
      #expect(UTType("org.ferrytests.shared.diag")?.conforms(to: .data) == false)
    }
  }
}
