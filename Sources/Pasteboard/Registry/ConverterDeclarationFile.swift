import FoundationEssentials
import UniformTypeIdentifiers

/// A converter declaration file, read and checked: a type declaration file (the keys of
/// `UTType.loadDeclarations(from:allowingExampleNamespace:)`) with a `FerryConversions` array.
///
/// ```json
/// { "UTExportedTypeDeclarations": [ { "UTTypeIdentifier": "com.example.profile",
///                                     "UTTypeConformsTo": ["public.json"] } ],
///   "FerryConversions": [
///     { "from": "com.example.profile", "to": "public.utf8-plain-text", "jsonField": "name" },
///     { "from": "com.example.profile", "to": "public.html",
///       "command": ["python3", "render.py"], "timeoutSeconds": 5 } ] }
/// ```
///
/// Each conversion entry has `from` and `to` (type identifiers, declared by then) and exactly
/// one of `jsonField` (a dotted path, see ``JSONFieldConverter``) or `command` (an argument
/// vector, see ``CommandConverter``), which alone may add `timeoutSeconds` (a positive number)
/// and `maxOutputBytes` (a positive integer). The program of a command is an absolute path, a
/// name looked up in `PATH`, or a path with a slash relative to the file's own directory
/// (`./render.sh`) — or to the directory given for it, when the file was copied from
/// elsewhere (the broker's copy of a client's file). Any other key is a mistake and leaves the entry out.
///
/// The file is JSON when it starts with `{`, else a property list (XML or binary), as type
/// declaration files are.
struct ConverterDeclarationFile {
  /// The key of the conversions array.
  static let conversionsKey = "FerryConversions"
  /// The keys a conversion entry may have.
  static let entryKeys: Set = [
    "from", "to", "jsonField", "command", "timeoutSeconds", "maxOutputBytes",
  ]

  /// The path as given, used in messages.
  let path: String
  /// The directory relative command paths are resolved against.
  let commandDirectory: URL
  /// Whether the file also declares types.
  let declaresTypes: Bool
  /// The raw conversion entries, in file order.
  let entries: [Any]

  /// Reads the file and checks its shape, declaring nothing.
  ///
  /// - Throws: ``PasteboardError/invalidConverterDeclaration(path:reason:)`` when the file
  ///   cannot be read or parsed, is not a dictionary, or has no `FerryConversions` array.
  /// - Parameters:
  ///   - path: The file.
  ///   - commandDirectory: What a relative command path is relative to; the file's own
  ///     directory when `nil`.
  ///   - requiringConversions: Whether a file without `FerryConversions` is an error; when
  ///     not, it is a file of type declarations with no conversions (a directory's).
  init(path: String, commandDirectory: String? = nil, requiringConversions: Bool = true)
    throws(PasteboardError)
  {
    switch FileBytes.contents(of: path) {
    case .success(let bytes):
      try self.init(
        path: path, contents: Data(bytes), commandDirectory: commandDirectory,
        requiringConversions: requiringConversions)
    case .failure(let error):
      throw .invalidConverterDeclaration(path: path, reason: "cannot read the file: \(error)")
    }
  }

  /// Checks the shape of `contents`, read from the file at `path`, declaring nothing.
  ///
  /// - Throws: ``PasteboardError/invalidConverterDeclaration(path:reason:)`` as
  ///   ``init(path:commandDirectory:requiringConversions:)`` does, for all but reading.
  init(
    path: String, contents: Data, commandDirectory: String? = nil, requiringConversions: Bool = true
  )
    throws(PasteboardError)
  {
    func invalid(_ reason: String) -> PasteboardError {
      .invalidConverterDeclaration(path: path, reason: reason)
    }
    self.path = path
    self.commandDirectory =
      commandDirectory.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
      ?? URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
    let root: Any
    do {
      root = try PropertyTree.parse(contents)
    } catch {
      throw invalid("bad \(PropertyTree.isJSON(contents) ? "JSON" : "property list"): \(error)")
    }
    guard let dictionary = root as? [String: Any] else {
      throw invalid("the top level is not a dictionary")
    }
    guard
      let conversions = dictionary[Self.conversionsKey] ?? (requiringConversions ? nil : [Any]())
    else {
      throw invalid(
        "no \(Self.conversionsKey) array (a file of type declarations alone is loaded with "
          + "UTType.loadDeclarations(from:))")
    }
    guard let entries = conversions as? [Any] else {
      throw invalid("\(Self.conversionsKey) is not an array")
    }
    self.entries = entries
    declaresTypes = ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"]
      .contains { dictionary[$0] != nil }
  }

  /// The converter of each entry, in file order, or the one problem that leaves it out.
  /// Types are looked up now: load the file's type declarations first.
  func converters() -> [Result<any PasteboardConverter, UTType.DeclarationDiagnostic>] {
    entries.indices.map { index in
      Result { () throws(EntryProblem) in try converter(for: entries[index]) }
        .mapError { problem in
          UTType.DeclarationDiagnostic(
            file: path, entry: label(index), problem: .malformed(problem.reason))
        }
    }
  }

  /// `FerryConversions[2]`, with `(from → to)` when the entry names both.
  func label(_ index: Int) -> String {
    let fields = entries[index] as? [String: Any]
    let base = "\(Self.conversionsKey)[\(index)]"
    guard let from = fields?["from"] as? String, let to = fields?["to"] as? String else {
      return base
    }
    return "\(base) (\(from) → \(to))"
  }

  private struct EntryProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  private func converter(for entry: Any) throws(EntryProblem) -> any PasteboardConverter {
    guard let fields = entry as? [String: Any] else { throw EntryProblem("is not a dictionary") }
    let unknown = fields.keys.filter { !Self.entryKeys.contains($0) }.sorted()
    guard unknown.isEmpty else {
      let known = Self.entryKeys.sorted().joined(separator: ", ")
      throw EntryProblem("unknown key '\(unknown[0])' (an entry has \(known))")
    }
    let source = try type(fields, "from")
    let target = try type(fields, "to")
    guard source != target else { throw EntryProblem("'from' and 'to' are the same type") }
    switch (fields["jsonField"], fields["command"]) {
    case (nil, nil):
      throw EntryProblem("has neither 'jsonField' nor 'command'; give one")
    case (.some, .some):
      throw EntryProblem("has both 'jsonField' and 'command'; give one")
    case (let field?, nil):
      for key in ["timeoutSeconds", "maxOutputBytes"] where fields[key] != nil {
        throw EntryProblem("'\(key)' applies to a 'command', not to a 'jsonField'")
      }
      guard let path = field as? String else { throw EntryProblem("'jsonField' is not a string") }
      do {
        return try JSONFieldConverter(from: source, to: target, fieldPath: path)
      } catch {
        throw EntryProblem("jsonField: \(error)")
      }
    case (nil, let command?):
      return try commandConverter(command, fields, from: source, to: target)
    }
  }

  private func type(_ fields: [String: Any], _ key: String) throws(EntryProblem) -> UTType {
    guard let value = fields[key] else { throw EntryProblem("no '\(key)' type") }
    guard let identifier = value as? String, !identifier.isEmpty else {
      throw EntryProblem("'\(key)' is not a type identifier string")
    }
    guard let type = UTType(identifier) else {
      throw EntryProblem(
        "'\(key)': unknown type '\(identifier)' (declare it in this file's "
          + "UTExportedTypeDeclarations, or load its declaration first)")
    }
    return type
  }

  private func commandConverter(
    _ value: Any, _ fields: [String: Any], from source: UTType, to target: UTType
  ) throws(EntryProblem) -> CommandConverter {
    guard let command = value as? [Any], !command.isEmpty,
      let arguments = command as? [String], !arguments[0].isEmpty
    else {
      throw EntryProblem(
        "'command' is not a non-empty array of strings (a program, then its arguments)")
    }
    var program = arguments[0]
    if program.contains("/") && !program.hasPrefix("/") {
      program = URL(fileURLWithPath: program, relativeTo: commandDirectory).standardizedFileURL.path
      guard CommandConverter.isExecutableFile(program) else {
        throw EntryProblem(
          "command: '\(arguments[0])' (relative to the file: \(program)) is not an executable file")
      }
    } else if CommandConverter.resolveExecutable(program) == nil {
      throw EntryProblem(
        program.hasPrefix("/")
          ? "command: '\(program)' is not an executable file"
          : "command: cannot find the program '\(program)' in PATH")
    }
    var timeLimit = CommandConverter.defaultTimeLimit
    if let seconds = fields["timeoutSeconds"] {
      guard let number = PropertyTree.number(seconds),
        number > 0, number <= 1_000_000
      else {
        throw EntryProblem("'timeoutSeconds' is not a positive number of seconds (at most 1000000)")
      }
      timeLimit = .milliseconds(max(1, (number * 1000).rounded(.up)))
    }
    var outputLimit = CommandConverter.defaultMaximumOutputBytes
    if let bytes = fields["maxOutputBytes"] {
      guard let count = bytes as? Int, count > 0 else {
        throw EntryProblem("'maxOutputBytes' is not a positive integer")
      }
      outputLimit = count
    }
    do {
      return try CommandConverter(
        from: source, to: target, command: [program] + arguments.dropFirst(),
        timeLimit: timeLimit, maximumOutputBytes: outputLimit)
    } catch {
      throw EntryProblem("command: \(error)")
    }
  }
}
