import FoundationEssentials

/// A declaration file: a JSON object or property list (XML or binary) with the Info.plist keys
/// `UTExportedTypeDeclarations` and `UTImportedTypeDeclarations`.
///
/// ```json
/// { "UTExportedTypeDeclarations": [ {
///     "UTTypeIdentifier": "org.example.profile",
///     "UTTypeConformsTo": ["public.json"],
///     "UTTypeDescription": "Profile",
///     "UTTypeTagSpecification": { "public.filename-extension": ["profile"] } } ] }
/// ```
struct DeclarationFile {
  /// One declaration and where it stands in the file.
  struct Item {
    var declaration: TypeDeclaration
    var isExported: Bool
    var entry: String
  }

  var path: String
  var items: [Item] = []
  var diagnostics: [UTType.DeclarationDiagnostic] = []

  /// Parses the file at `path`. Problems become diagnostics; every well-formed entry loads.
  init(path: String) {
    self.init(path: path, contents: FileBytes.read(path).map { Data($0) })
  }

  /// Parses `contents` as if read from `path`; `nil` contents mean the file was unreadable.
  init(path: String, contents: Data?) {
    self.path = path
    guard let contents else {
      diagnostics.append(.init(file: path, entry: nil, problem: .unreadable))
      return
    }
    let root: Any
    do {
      root = try Self.parse(contents)
    } catch {
      diagnostics.append(.init(file: path, entry: nil, problem: .malformed(error.description)))
      return
    }
    guard let dictionary = root as? [String: Any] else {
      diagnostics.append(
        .init(file: path, entry: nil, problem: .malformed("the top level is not a dictionary")))
      return
    }
    let known = ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"]
    if known.allSatisfy({ dictionary[$0] == nil }) {
      diagnostics.append(
        .init(
          file: path, entry: nil,
          problem: .malformed("neither UTExportedTypeDeclarations nor UTImportedTypeDeclarations")))
    }
    for key in known {
      guard let value = dictionary[key] else { continue }
      guard let list = value as? [Any] else {
        diagnostics.append(.init(file: path, entry: key, problem: .malformed("is not an array")))
        continue
      }
      for (index, element) in list.enumerated() {
        readEntry(element, entry: "\(key)[\(index)]", isExported: key == known[0])
      }
    }
  }

  private mutating func readEntry(_ element: Any, entry: String, isExported: Bool) {
    guard let fields = element as? [String: Any] else {
      diagnostics.append(
        .init(file: path, entry: entry, problem: .malformed("is not a dictionary")))
      return
    }
    guard let identifier = fields["UTTypeIdentifier"] as? String, !identifier.isEmpty else {
      diagnostics.append(.init(file: path, entry: entry, problem: .missingIdentifier))
      return
    }
    let label = "\(entry) (\(identifier))"
    var declaration = TypeDeclaration(identifier: identifier)
    switch fields["UTTypeConformsTo"] {
    case let single as String: declaration.conformsTo = [single]
    case let list as [Any] where list.allSatisfy({ $0 is String }):
      declaration.conformsTo = list.compactMap { $0 as? String }
    case nil: break
    default:
      // The strings of a mixed list still load.
      declaration.conformsTo =
        (fields["UTTypeConformsTo"] as? [Any])?.compactMap { $0 as? String } ?? []
      diagnostics.append(
        .init(
          file: path, entry: label, problem: .malformed("UTTypeConformsTo is not a list of strings")
        ))
    }
    declaration.description = fields["UTTypeDescription"] as? String
    declaration.referenceURL = fields["UTTypeReferenceURL"] as? String
    switch fields["UTTypeVersion"] {
    case let number as Int: declaration.version = number
    case let text as String: declaration.version = Int(text)
    default: break
    }
    if let specification = fields["UTTypeTagSpecification"] {
      guard let tags = specification as? [String: Any] else {
        diagnostics.append(
          .init(
            file: path, entry: label,
            problem: .malformed("UTTypeTagSpecification is not a dictionary")))
        return
      }
      for (tagClass, value) in tags.sorted(by: { $0.key < $1.key }) {
        switch value {
        case let single as String: declaration.tags[UTTagClass(rawValue: tagClass)] = [single]
        case let list as [Any] where list.allSatisfy({ $0 is String }):
          declaration.tags[UTTagClass(rawValue: tagClass)] = list.compactMap { $0 as? String }
        default:
          // The strings of a mixed list still load.
          let strings = (value as? [Any])?.compactMap { $0 as? String } ?? []
          if !strings.isEmpty { declaration.tags[UTTagClass(rawValue: tagClass)] = strings }
          diagnostics.append(
            .init(
              file: path, entry: label, problem: .malformed("tags of \(tagClass) are not strings")))
        }
      }
    }
    items.append(Item(declaration: declaration, isExported: isExported, entry: label))
  }

  private static func parse(_ contents: Data) throws(ParseError) -> Any {
    do {
      return try PropertyTree.parse(contents)
    } catch {
      throw ParseError(
        description: "bad \(PropertyTree.isJSON(contents) ? "JSON" : "property list"): \(error)")
    }
  }

  struct ParseError: Error {
    var description: String
  }
}
