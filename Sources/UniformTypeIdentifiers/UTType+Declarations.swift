extension UTType {
  /// The type your program owns and exports, declared here if no file declares it.
  ///
  /// A declaration file's declaration of the same identifier, exported or imported, takes
  /// precedence, with its tags, description and parents, as an Info.plist's does on Apple's
  /// systems; otherwise this call declares the type, conforming to `parent` (or
  /// `public.data`), with no tags. Identifiers in the system's reserved namespaces are not
  /// declared this way.
  ///
  /// ```swift
  /// extension UTType {
  ///   static let profile = UTType(exportedAs: "com.example.profile", conformingTo: .json)
  /// }
  /// UTType.profile.conforms(to: .text)   // true
  /// ```
  ///
  /// - Parameters:
  ///   - identifier: The type's identifier.
  ///   - parent: The type it conforms to; `public.data` when `nil`.
  public init(exportedAs identifier: String, conformingTo parent: UTType? = nil) {
    TypeRegistry.shared.declareInCode(
      identifier: identifier, parent: parent?.identifier, exported: true)
    self.init(identifier: identifier)
  }

  /// A type owned by someone else that your program uses, declared here if nothing else does.
  ///
  /// Any file's declaration of the identifier — exported or imported, loaded before or after
  /// this call — and any exported declaration in code take precedence, and the returned value
  /// follows them: properties are resolved whenever they are read.
  ///
  /// As Apple's does, the result is a type *functionally equivalent* to the one requested,
  /// not always that type: when the type's preferred filename extension is preferentially
  /// claimed by another type that conforms to `parent` (a system type, or a type declared
  /// with more precedence), that other type is returned. Evaluate it where you use it (a
  /// computed `static var`), not once: the answer follows the declarations loaded.
  ///
  /// ```swift
  /// extension UTType {
  ///   static var markdown: UTType {
  ///     UTType(importedAs: "net.daringfireball.markdown", conformingTo: .plainText)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - identifier: The type's identifier.
  ///   - parent: The type it conforms to; `public.data` when `nil`. A substitute must
  ///     conform to it.
  public init(importedAs identifier: String, conformingTo parent: UTType? = nil) {
    TypeRegistry.shared.declareInCode(
      identifier: identifier, parent: parent?.identifier, exported: false)
    self.init(identifier: identifier)
    if let owner = TypeRegistry.shared.importSubstitute(forKey: key, conformingTo: parent?.key) {
      self.init(record: owner)
    }
  }

  private init(identifier: String) {
    if let record = TypeRegistry.shared.record(forKey: TypeIdentifier.key(identifier)) {
      self.init(record: record)
    } else {
      self.init(uncheckedIdentifier: identifier)
    }
  }

  /// Loads type declarations from a file, or from every `.json` and `.plist` file in a
  /// directory, and returns the problems found.
  ///
  /// Files use the Info.plist keys (`UTExportedTypeDeclarations`, `UTImportedTypeDeclarations`,
  /// `UTTypeIdentifier`, `UTTypeConformsTo`, `UTTypeDescription`, `UTTypeTagSpecification`,
  /// `UTTypeReferenceURL`, `UTTypeVersion`) in JSON or property-list form. Every well-formed
  /// entry loads; each problem is reported once, naming the file and the entry. Loading a file
  /// again replaces what it declared before.
  ///
  /// The standard directories (`$XDG_DATA_HOME/ferry/types`, then each `$XDG_DATA_DIRS`
  /// entry's `ferry/types`) are read without asking, the first time a lookup needs them.
  ///
  /// ```swift
  /// let problems = UTType.loadDeclarations(from: "/opt/app/types.json")
  /// problems.forEach { print("warning:", $0) }
  /// ```
  ///
  /// - Parameters:
  ///   - path: A declaration file, or a directory of them.
  ///   - allowingExampleNamespace: Accept `com.example` identifiers, for examples and tests.
  /// - Returns: The problems found; empty when everything loaded.
  @discardableResult
  public static func loadDeclarations(
    from path: String, allowingExampleNamespace: Bool = false
  ) -> [DeclarationDiagnostic] {
    TypeRegistry.shared.loadDeclarations(
      from: path, allowingExampleNamespace: allowingExampleNamespace)
  }

  /// Every problem found so far in declaration files, the standard directories' included.
  ///
  /// Reading it loads the standard directories if no lookup has yet.
  public static var declarationDiagnostics: [DeclarationDiagnostic] {
    _ = TypeRegistry.shared.overlay(loading: .declarations)
    return TypeRegistry.shared.diagnostics
  }
}
