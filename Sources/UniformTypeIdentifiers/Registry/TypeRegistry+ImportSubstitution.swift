extension TypeRegistry {
  /// The type `UTType(importedAs:conformingTo:)` answers in place of the type `key`: the type
  /// that preferentially claims `key`'s preferred filename extension, when that is another
  /// type conforming to `parentKey` (any type when `nil`); `nil` when `key` keeps its own
  /// identifier.
  ///
  /// Apple documents the imported type as *functionally equivalent* to the one requested:
  /// when another type owns its preferred extension, that type is returned. System types are
  /// never substituted; a type with no preferred extension (one declared only in code) keeps
  /// its identifier.
  func importSubstitute(forKey key: String, conformingTo parentKey: String?) -> TypeRecord? {
    guard system.records[key] == nil, let record = record(forKey: key),
      let preferredExtension = record.tags[.filenameExtension]?.first,
      let owner = preferredRecord(
        tag: preferredExtension, tagClass: .filenameExtension, conformingTo: parentKey),
      owner.key != key
    else { return nil }
    return owner
  }
}
