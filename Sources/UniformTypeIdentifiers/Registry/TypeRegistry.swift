import FerrySystem

/// The process's types: the system table, declarations from files and code, and the MIME
/// database, resolved into catalogs.
///
/// The system catalog is immutable and needs no lock. Declaration files are read the first
/// time a lookup misses the system table; the MIME database the first time a lookup also
/// misses the declarations (or names a type derived from it). Writers are serialized by one
/// lock and build a new overlay catalog; readers take a short lock to fetch the current one.
package final class TypeRegistry: Sendable {
  /// The registry behind `UTType`.
  package static let shared = TypeRegistry(configuration: .standard)

  /// Where a registry finds its declarations and MIME database.
  package struct Configuration: Sendable {
    /// Directories searched for declaration files, in precedence order.
    package var declarationDirectories: [String]
    /// The MIME database directories; `nil` for the XDG data path.
    package var mimeDirectories: [String]?

    package init(declarationDirectories: [String], mimeDirectories: [String]? = nil) {
      self.declarationDirectories = declarationDirectories
      self.mimeDirectories = mimeDirectories
    }

    /// `$XDG_DATA_HOME/ferry/types`, then each `$XDG_DATA_DIRS` entry's `ferry/types`.
    package static var standard: Configuration {
      Configuration(declarationDirectories: Environment.dataSearchPath.map { $0 + "/ferry/types" })
    }
  }

  /// What a lookup needs loaded before it can answer.
  package enum Requirement: Int, Comparable, Sendable {
    case declarations, mimeDatabase
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  struct DeclaredEntry: Sendable {
    var declaration: TypeDeclaration
    var layer: DeclarationLayer
    var file: String?
    var entry: String
  }

  struct State: Sendable {
    var declared: [DeclaredEntry] = []
    var searchPathLoaded = false
    var mime: SharedMIMEDatabase?
    var overlay = TypeCatalog()
    var diagnostics: [UTType.DeclarationDiagnostic] = []

    /// What `overlay` holds.
    var loaded: Requirement? {
      mime != nil ? .mimeDatabase : searchPathLoaded ? .declarations : nil
    }
  }

  package let configuration: Configuration
  let system = SystemTypeTable.catalog
  let state = TrackedMutex(State())
  let writer = TrackedMutex(())

  package init(configuration: Configuration) {
    self.configuration = configuration
  }

  /// The overlay catalog, with at least `requirement` loaded.
  package func overlay(loading requirement: Requirement) -> TypeCatalog {
    loadedOverlay(atLeast: requirement).catalog
  }

  /// The overlay catalog with at least `requirement` loaded, and what it holds, read together:
  /// once the MIME database is loaded, a lookup takes the lock once.
  func loadedOverlay(
    atLeast requirement: Requirement
  ) -> (catalog: TypeCatalog, loaded: Requirement) {
    let (overlay, loaded) = state.withLock { ($0.overlay, $0.loaded) }
    if let loaded, loaded >= requirement { return (overlay, loaded) }
    writer.withLock { _ in
      loadSearchPathIfNeeded()
      if requirement == .mimeDatabase { loadMIMEDatabaseIfNeeded() }
    }
    return state.withLock { ($0.overlay, $0.loaded ?? requirement) }
  }

  /// Whether the MIME database has been read.
  package var isMIMEDatabaseLoaded: Bool { state.withLock { $0.mime != nil } }

  /// Every declaration problem seen so far, and every conformance of a declaration file to a
  /// type that nothing declares now.
  package var diagnostics: [UTType.DeclarationDiagnostic] {
    state.withLock { state in
      state.diagnostics
        + undeclaredParents(of: state.declared.filter { $0.file != nil }, in: state.overlay)
    }
  }

  /// One `unknownParent` diagnostic for each conformance of `entries` to a type that neither
  /// the system, `overlay` nor a `dyn.` identifier declares at this moment.
  func undeclaredParents(
    of entries: [DeclaredEntry], in overlay: TypeCatalog
  ) -> [UTType.DeclarationDiagnostic] {
    entries.flatMap { entry in
      entry.declaration.conformsTo.compactMap { parent -> UTType.DeclarationDiagnostic? in
        let key = TypeIdentifier.key(parent)
        if system.records[key] != nil || overlay.records[key] != nil { return nil }
        if TypeIdentifier.isValid(parent), DynamicIdentifier.decode(parent) != nil { return nil }
        return .init(
          file: entry.file ?? "code", entry: entry.entry,
          problem: .unknownParent(identifier: entry.declaration.identifier, parent: parent))
      }
    }
  }

  // MARK: Writing (called with `writer` held)

  func loadSearchPathIfNeeded() {
    guard !state.withLock({ $0.searchPathLoaded }) else { return }
    var files: [DeclarationFile] = []
    for directory in configuration.declarationDirectories {
      for name in FileBytes.directoryEntries(directory)
      where name.hasSuffix(".json") || name.hasSuffix(".plist") {
        files.append(DeclarationFile(path: directory + "/" + name))
      }
    }
    if !files.isEmpty { admit(files, allowingExampleNamespace: false) }
    // Set only once the overlay holds the files' types: readers that see it skip the writer.
    state.withLock { $0.searchPathLoaded = true }
  }

  func loadMIMEDatabaseIfNeeded() {
    guard !state.withLock({ $0.mime != nil }) else { return }
    let database = SharedMIMEDatabase.load(
      directories: configuration.mimeDirectories ?? SharedMIMEDatabase.defaultDirectories,
      system: system)
    rebuild(loading: database)
  }

  /// Rebuilds the overlay from the current declarations and MIME database, or from `loaded`, a
  /// database just read, which is published with the overlay that holds it: readers that see
  /// the database loaded skip the writer.
  func rebuild(loading loaded: SharedMIMEDatabase? = nil) {
    let (declared, current) = state.withLock { ($0.declared, $0.mime) }
    let mime = loaded ?? current
    let entries =
      declared.map { TypeCatalog.Entry(declaration: $0.declaration, layer: $0.layer) }
      + (mime?.entries ?? [])
    let overlay = TypeCatalog.build(
      entries: entries, additions: mime?.additions ?? [], over: system)
    state.withLock {
      $0.overlay = overlay
      if let loaded { $0.mime = loaded }
    }
  }

  /// Admits the entries of `files`: validates them, reports problems, rebuilds the overlay.
  func admit(_ files: [DeclarationFile], allowingExampleNamespace: Bool) {
    var diagnostics = files.flatMap(\.diagnostics)
    let paths = Set(files.map(\.path))
    var declared = state.withLock { $0.declared }.filter { entry in
      entry.file.map { !paths.contains($0) } ?? true
    }
    let firstNew = declared.count
    for file in files {
      for item in file.items {
        let identifier = item.declaration.identifier
        func refuse(_ problem: UTType.DeclarationDiagnostic.Problem) {
          diagnostics.append(.init(file: file.path, entry: item.entry, problem: problem))
        }
        guard TypeIdentifier.isValid(identifier) else {
          refuse(.invalidIdentifier(identifier))
          continue
        }
        if let namespace = TypeIdentifier.reservedNamespace(of: identifier),
          !(namespace == "com.example" && allowingExampleNamespace)
        {
          refuse(.reservedNamespace(identifier: identifier, namespace: namespace))
          continue
        }
        if system.records[TypeIdentifier.key(identifier)] != nil {
          refuse(.systemType(identifier))
          continue
        }
        declared.append(
          DeclaredEntry(
            declaration: item.declaration, layer: item.isExported ? .exportedFile : .importedFile,
            file: file.path, entry: item.entry))
      }
    }
    loadMIMEDatabaseForParents(of: declared[firstNew...])
    diagnostics += breakCycles(&declared, from: firstNew)
    state.withLock {
      $0.declared = declared
      $0.diagnostics += diagnostics
    }
    rebuild()
  }

  /// Reads the MIME database when a new entry conforms to a type derived from it, so that the
  /// conformance resolves at once. Parents nobody declares yet are kept: conformance is
  /// resolved when asked, so a type a later file or later code declares counts from then on.
  private func loadMIMEDatabaseForParents(of declared: ArraySlice<DeclaredEntry>) {
    let needsDatabase = declared.contains { entry in
      entry.declaration.conformsTo.contains {
        TypeIdentifier.key($0).hasPrefix(SharedMIMEDatabase.derivedPrefix)
      }
    }
    if needsDatabase { loadMIMEDatabaseIfNeeded() }
  }

  /// Finds conformance cycles among declarations and drops the conformance closing each one.
  private func breakCycles(
    _ declared: inout [DeclaredEntry], from firstNew: Int
  ) -> [UTType.DeclarationDiagnostic] {
    var indexOfKey: [String: Int] = [:]
    for (index, entry) in declared.enumerated() {
      let key = TypeIdentifier.key(entry.declaration.identifier)
      if let current = indexOfKey[key], declared[current].layer <= entry.layer { continue }
      indexOfKey[key] = index
    }
    var diagnostics: [UTType.DeclarationDiagnostic] = []
    var finished = Set<String>()
    var path: [String] = []
    var onPath = Set<String>()

    func visit(_ key: String) {
      guard let index = indexOfKey[key], !finished.contains(key) else { return }
      path.append(key)
      onPath.insert(key)
      var kept: [String] = []
      for parent in declared[index].declaration.conformsTo {
        let parentKey = TypeIdentifier.key(parent)
        if onPath.contains(parentKey) {
          let cycle = path.drop(while: { $0 != parentKey }) + [parentKey]
          let names = cycle.map { indexOfKey[$0].map { declared[$0].declaration.identifier } ?? $0 }
          diagnostics.append(
            .init(
              file: declared[index].file ?? "code", entry: declared[index].entry,
              problem: .conformanceCycle(names)))
          continue
        }
        kept.append(parent)
        visit(parentKey)
      }
      declared[index].declaration.conformsTo = kept
      path.removeLast()
      onPath.remove(key)
      finished.insert(key)
    }
    for index in firstNew..<declared.count {
      visit(TypeIdentifier.key(declared[index].declaration.identifier))
    }
    return diagnostics
  }

  /// Records a declaration made in Swift code (`UTType(exportedAs:)`, `UTType(importedAs:)`).
  func declareInCode(identifier: String, parent: String?, exported: Bool) {
    let key = TypeIdentifier.key(identifier)
    guard TypeIdentifier.isValid(identifier), system.records[key] == nil else { return }
    if let namespace = TypeIdentifier.reservedNamespace(of: identifier), namespace != "com.example"
    {
      return
    }
    let layer: DeclarationLayer = exported ? .exportedCode : .importedCode
    let exists = state.withLock { state in
      state.declared.contains {
        $0.layer == layer && TypeIdentifier.key($0.declaration.identifier) == key
      }
    }
    if exists { return }
    writer.withLock { _ in
      loadSearchPathIfNeeded()
      let declaration = TypeDeclaration(
        identifier: identifier, conformsTo: [parent ?? "public.data"])
      var declared = state.withLock { $0.declared }
      declared.append(
        DeclaredEntry(declaration: declaration, layer: layer, file: nil, entry: identifier))
      let diagnostics = breakCycles(&declared, from: declared.count - 1)
      state.withLock {
        $0.declared = declared
        $0.diagnostics += diagnostics
      }
      rebuild()
    }
  }

  /// Loads the declaration file at `path`, or every `.json` and `.plist` file in the directory
  /// at `path`, and returns the problems found in them.
  package func loadDeclarations(
    from path: String, allowingExampleNamespace: Bool
  ) -> [UTType.DeclarationDiagnostic] {
    let names = FileBytes.directoryEntries(path)
    let files: [DeclarationFile]
    if !names.isEmpty || FileBytes.isDirectory(path) {
      files = names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".plist") }
        .map { DeclarationFile(path: path + "/" + $0) }
    } else {
      files = [DeclarationFile(path: path)]
    }
    return writer.withLock { _ in
      loadSearchPathIfNeeded()
      let before = state.withLock { $0.diagnostics.count }
      admit(files, allowingExampleNamespace: allowingExampleNamespace)
      let paths = Set(files.map(\.path))
      return state.withLock { state in
        Array(state.diagnostics[before...])
          + undeclaredParents(
            of: state.declared.filter { $0.file.map(paths.contains) ?? false },
            in: state.overlay)
      }
    }
  }
}
