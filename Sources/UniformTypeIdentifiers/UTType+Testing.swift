// Package-level views of a type for Ferry's own tools and tests; not API.

extension UTType {
  /// The direct parents, as declared.
  package var _parents: [UTType] {
    guard let record else { return [] }
    return record.parentKeys.map { key in
      TypeRegistry.shared.record(forKey: key).map(UTType.init(record:))
        ?? UTType(uncheckedIdentifier: key)
    }
  }

  /// Where the type's winning declaration comes from, in words.
  package var _declarationSource: String {
    switch record?.layer {
    case .system: "system"
    case .exportedFile: "exported declaration file"
    case .exportedCode: "exported in code"
    case .importedFile: "imported declaration file"
    case .importedCode: "imported in code"
    case .mimeDatabase: "shared-mime-info database"
    case .dynamic: "dynamic"
    case nil: "undeclared"
    }
  }
}

extension UTType {
  /// Whether `identifier` is a well-formed type identifier: ASCII letters, digits and `-`, in
  /// at least two dot-separated parts. Declared or not.
  package static func _isWellFormedIdentifier(_ identifier: String) -> Bool {
    TypeIdentifier.isValid(identifier)
  }
}
