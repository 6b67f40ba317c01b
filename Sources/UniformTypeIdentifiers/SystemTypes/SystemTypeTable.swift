/// The types every process knows without reading a file: Apple's system declarations and
/// Ferry's desktop types, compiled into the library by `Scripts/generate-system-types`.
///
/// Closures and the tag-claim order are resolved at generation time, so making the table ready
/// is only filling a few dictionaries: a command that needs only these types never touches
/// the MIME database.
package enum SystemTypeTable {
  /// One generated row.
  struct Row {
    var identifier: String
    var parents: [String]
    var ancestors: SystemTypeSet
    var tags: [UTTagClass: [String]]
    var description: String

    init(
      _ identifier: String, parents: [String], ancestors: SystemTypeSet, extensions: [String],
      mimeTypes: [String], x11Targets: [String], description: String
    ) {
      self.identifier = identifier
      self.parents = parents
      self.ancestors = ancestors
      self.description = description
      var tags: [UTTagClass: [String]] = [:]
      if !extensions.isEmpty { tags[.filenameExtension] = extensions }
      if !mimeTypes.isEmpty { tags[.mimeType] = mimeTypes }
      if !x11Targets.isEmpty { tags[.x11Target] = x11Targets }
      self.tags = tags
    }
  }

  /// The system records, in table order.
  package static let records: [TypeRecord] = rows.enumerated().map { index, row in
    TypeRecord(systemRow: row, index: index)
  }

  /// The catalog of system types.
  package static let catalog = TypeCatalog(
    systemRecords: records,
    claims: [
      .filenameExtension: extensionClaims, .mimeType: mimeTypeClaims, .x11Target: x11TargetClaims,
    ])
}
