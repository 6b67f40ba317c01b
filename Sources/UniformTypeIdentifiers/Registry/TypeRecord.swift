/// A resolved type: the winning declaration of an identifier, with its conformance closure.
///
/// Records are immutable; a registry change builds new ones. Records of system types live as
/// long as the process and carry their row, so conformance among them is a bit test.
package final class TypeRecord: Sendable {
  /// The identifier as declared.
  package let identifier: String
  /// The lowercased identifier, the key of every lookup.
  package let key: String
  /// The keys of the direct parents.
  package let parentKeys: [String]
  /// Tags by class, preferred first.
  package let tags: [UTTagClass: [String]]
  /// The English description.
  package let description: String?
  /// `UTTypeReferenceURL`.
  package let referenceURL: String?
  /// `UTTypeVersion`.
  package let version: Int?
  /// The layer of the winning declaration.
  package let layer: DeclarationLayer
  /// The MIME type whose database entry localizes the description.
  package let mimeCommentSource: String?
  /// The row in the system table, or -1.
  package let systemIndex: Int
  /// The system types this type conforms to, excluding itself.
  package let systemAncestors: SystemTypeSet
  /// The other types this type conforms to, excluding itself.
  package let otherAncestorKeys: Set<String>
  /// The name every `UTType` of this type holds, made once, so that a lookup allocates
  /// nothing; `nil` for a system type, whose values hold its row.
  let typeName: UTType.TypeName?

  init(systemRow row: SystemTypeTable.Row, index: Int) {
    identifier = row.identifier
    key = TypeIdentifier.key(row.identifier)
    parentKeys = row.parents.map(TypeIdentifier.key)
    tags = row.tags
    description = row.description
    referenceURL = nil
    version = nil
    layer = .system
    mimeCommentSource = nil
    systemIndex = index
    systemAncestors = row.ancestors
    otherAncestorKeys = []
    typeName = nil
  }

  init(
    declaration: TypeDeclaration, layer: DeclarationLayer, parentKeys: [String],
    systemAncestors: SystemTypeSet, otherAncestorKeys: Set<String>
  ) {
    self.identifier = declaration.identifier
    self.key = TypeIdentifier.key(declaration.identifier)
    self.parentKeys = parentKeys
    self.tags = declaration.tags
    self.description = declaration.description
    self.referenceURL = declaration.referenceURL
    self.version = declaration.version
    self.layer = layer
    self.mimeCommentSource = declaration.mimeCommentSource
    self.systemIndex = -1
    self.systemAncestors = systemAncestors
    self.otherAncestorKeys = otherAncestorKeys
    self.typeName = UTType.TypeName(identifier: identifier, key: key)
  }

  convenience init(
    declaration: TypeDeclaration, layer: DeclarationLayer, parentKeys: [String],
    ancestorKeys: Set<String>
  ) {
    var system = SystemTypeSet.empty
    var other = Set<String>()
    for ancestor in ancestorKeys {
      if let record = SystemTypeTable.catalog.records[ancestor] {
        system.insert(record.systemIndex)
      } else {
        other.insert(ancestor)
      }
    }
    self.init(
      declaration: declaration, layer: layer, parentKeys: parentKeys, systemAncestors: system,
      otherAncestorKeys: other)
  }

  /// How many types this type conforms to, excluding itself.
  package var ancestorCount: Int { systemAncestors.count + otherAncestorKeys.count }

  /// Every key this type conforms to, directly or not, excluding its own.
  package var ancestorKeys: Set<String> {
    otherAncestorKeys.union(systemAncestors.indices.map { SystemTypeTable.records[$0].key })
  }

  /// Whether this type is `other` or conforms to it.
  @inline(__always)
  package func conforms(to other: TypeRecord) -> Bool {
    if other.systemIndex >= 0 {
      return systemIndex == other.systemIndex || systemAncestors.contains(other.systemIndex)
    }
    return key == other.key || otherAncestorKeys.contains(other.key)
  }

  /// Whether this type is the type with `otherKey` or conforms to it.
  package func conforms(toKey otherKey: String) -> Bool {
    if key == otherKey { return true }
    if let system = SystemTypeTable.catalog.records[otherKey] { return conforms(to: system) }
    return otherAncestorKeys.contains(otherKey)
  }
}
