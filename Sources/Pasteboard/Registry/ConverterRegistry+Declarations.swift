import FoundationEssentials
import UniformTypeIdentifiers

extension ConverterRegistry {
  /// Registers the types and conversions of a declaration file, so that a script can teach
  /// pasteboards a type without Swift.
  ///
  /// The file is a type declaration file (JSON or property list, the keys of
  /// `UTType.loadDeclarations(from:allowingExampleNamespace:)`) with a `FerryConversions`
  /// array; docs/CONVERTERS.md describes it. Its type declarations are loaded first, through
  /// `UTType.loadDeclarations`, so its conversions can name them. Each conversion entry becomes
  /// a ``JSONFieldConverter`` or a ``CommandConverter`` registered after those already here;
  /// an entry with a problem is left out and reported, and the others register.
  ///
  /// Registering the same file again (the same file, however the path is spelt) replaces the
  /// converters it registered before, in their place, so an edited file takes effect.
  ///
  /// ```swift
  /// let problems = try ConverterRegistry.shared.registerDeclarations(
  ///   from: "/home/me/.config/ferry/profile.json")
  /// problems.forEach { print("warning:", $0) }
  /// // profile.json: FerryConversions[1] (com.example.profile → public.html): command:
  /// //   cannot find the program 'render-profile' in PATH
  /// ```
  ///
  /// A directory registers every `.json` and `.plist` file in it, in the byte order of their
  /// names (`10-base.json` before `20-extra.json`), so a later file's conversions come after
  /// an earlier one's and can use its types; a file there without `FerryConversions` only
  /// declares types, and a file that cannot be read or parsed is reported and skipped.
  ///
  /// - Parameters:
  ///   - path: The declaration file, or a directory of them.
  ///   - allowingExampleNamespace: Accept `com.example` type identifiers, for examples and
  ///     tests.
  ///   - commandDirectory: What a command path such as `./render.sh` is relative to: the
  ///     directory the file was written in, when `path` is a copy of it kept elsewhere. The
  ///     file's own directory when `nil`.
  /// - Returns: Every problem found, one per bad entry, each naming the file and the entry:
  ///   the type declarations' diagnostics, then one per conversion entry left out. Empty when
  ///   everything registered.
  /// - Throws: ``PasteboardError/invalidConverterDeclaration(path:reason:)`` when the file
  ///   cannot be read or parsed or has no `FerryConversions` array; nothing is declared or
  ///   registered then.
  @discardableResult
  public func registerDeclarations(
    from path: String, allowingExampleNamespace: Bool = false, commandDirectory: String? = nil
  ) throws -> [UTType.DeclarationDiagnostic] {
    if let names = Self.declarationFiles(inDirectory: path) {
      var diagnostics: [UTType.DeclarationDiagnostic] = []
      for name in names {
        let file = path + "/" + name
        do {
          diagnostics += try register(
            file, allowingExampleNamespace: allowingExampleNamespace,
            commandDirectory: commandDirectory,
            requiringConversions: false)
        } catch {
          diagnostics.append(
            UTType.DeclarationDiagnostic(file: file, entry: nil, problem: .malformed("\(error)")))
        }
      }
      return diagnostics
    }
    return try register(
      path, allowingExampleNamespace: allowingExampleNamespace, commandDirectory: commandDirectory,
      requiringConversions: true)
  }

  /// Checks that `contents` is a declaration file that
  /// ``registerDeclarations(from:allowingExampleNamespace:commandDirectory:)`` takes (it parses,
  /// and has a `FerryConversions` array), declaring and registering nothing: what the broker
  /// asks of a file before it keeps it.
  ///
  /// - Parameter name: The file's name, for the error.
  /// - Throws: ``PasteboardError/invalidConverterDeclaration(path:reason:)`` naming `name`.
  package static func checkDeclarations(_ contents: Data, named name: String)
    throws(PasteboardError)
  {
    _ = try ConverterDeclarationFile(path: name, contents: contents)
  }

  /// The `.json` and `.plist` files of `path` in byte order of their names, or `nil` when
  /// `path` is not a directory.
  static func declarationFiles(inDirectory path: String) -> [String]? {
    // Listing fails for anything but a directory (or a link to one).
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
    return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".plist") }
      .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }

  /// Registers one declaration file (see ``registerDeclarations(from:allowingExampleNamespace:commandDirectory:)``).
  private func register(
    _ path: String, allowingExampleNamespace: Bool, commandDirectory: String?,
    requiringConversions: Bool
  ) throws -> [UTType.DeclarationDiagnostic] {
    let file = try ConverterDeclarationFile(
      path: path, commandDirectory: commandDirectory, requiringConversions: requiringConversions)
    var diagnostics: [UTType.DeclarationDiagnostic] = []
    if file.declaresTypes {
      diagnostics += UTType.loadDeclarations(
        from: path, allowingExampleNamespace: allowingExampleNamespace)
    }
    let origin = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    var converters: [any PasteboardConverter] = []
    for result in file.converters() {
      switch result {
      case .success(let converter):
        converters.append(DeclaredConverter(file: origin, base: converter))
      case .failure(let problem): diagnostics.append(problem)
      }
    }
    replace(where: { ($0 as? DeclaredConverter)?.file == origin }, with: converters)
    return diagnostics
  }
}

/// A converter registered from a declaration file, remembering the file so that registering
/// it again replaces it.
struct DeclaredConverter: PasteboardConverter {
  /// The file's canonical path.
  let file: String
  /// The ``JSONFieldConverter`` or ``CommandConverter`` doing the work.
  let base: any PasteboardConverter

  func outputs(from source: UTType) -> [UTType] {
    base.outputs(from: source)
  }

  func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    try await base.convert(payload, from: source, to: target)
  }
}
