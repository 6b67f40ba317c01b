/// A set of resolved types with an index from tags to the types that claim them.
///
/// The system catalog is built once; the registry builds an overlay catalog for declarations
/// and the MIME database whenever one of them changes.
package struct TypeCatalog: Sendable {
  /// One type's claim on a tag.
  package struct TagClaim: Sendable {
    package var key: String
    package var layer: DeclarationLayer
    /// Whether the tag is the type's first of its class.
    package var isPreferred: Bool
    /// The glob weight of the MIME database (50 for declarations).
    package var weight: Int
    /// How many types the claimant conforms to: the more, the more specific.
    package var depth: Int
    /// The order of the declaration.
    package var order: Int
  }

  /// Records by key.
  package private(set) var records: [String: TypeRecord] = [:]
  /// Claims by tag class and normalized tag, best first.
  package private(set) var claims: [UTTagClass: [String: [TagClaim]]] = [:]
  /// Tags the MIME database adds to types that are declared elsewhere, by key.
  package private(set) var tagAdditions: [String: [UTTagClass: [String]]] = [:]
  /// The MIME type that localizes each type's description, by key.
  package private(set) var commentSources: [String: String] = [:]

  package init() {}

  /// The claims on `tag` (already normalized), best first.
  package func claims(on normalizedTag: String, in tagClass: UTTagClass) -> [TagClaim] {
    claims[tagClass]?[normalizedTag] ?? []
  }
}

extension TypeCatalog {
  /// A declaration to place in a catalog.
  package struct Entry: Sendable {
    package var declaration: TypeDeclaration
    package var layer: DeclarationLayer
    /// Weights of individual filename-extension tags (MIME database globs).
    package var extensionWeights: [String: Int] = [:]

    package init(
      declaration: TypeDeclaration, layer: DeclarationLayer, extensionWeights: [String: Int] = [:]
    ) {
      self.declaration = declaration
      self.layer = layer
      self.extensionWeights = extensionWeights
    }
  }

  /// Tags that an entry of the MIME database adds to a type declared elsewhere.
  package struct TagAddition: Sendable {
    package var key: String
    package var tags: [UTTagClass: [String]]
    package var extensionWeights: [String: Int]
    package var commentSource: String?
  }

  /// Builds a catalog from entries in priority order.
  ///
  /// For each identifier the entry of the lowest layer wins, then the first one; identifiers
  /// that `base` already resolves are left to `base`. Conformance closures are computed here
  /// and never loop, whatever cycles the declarations contain.
  package static func build(
    entries: [Entry], additions: [TagAddition] = [], over base: TypeCatalog? = nil
  ) -> TypeCatalog {
    var winners: [String: (entry: Entry, order: Int)] = [:]
    var winnerOrder: [String] = []
    for (order, entry) in entries.enumerated() {
      let key = TypeIdentifier.key(entry.declaration.identifier)
      if base?.records[key] != nil { continue }
      if let current = winners[key] {
        if entry.layer < current.entry.layer { winners[key] = (entry, current.order) }
        continue
      }
      winners[key] = (entry, order)
      winnerOrder.append(key)
    }

    var closures = ClosureBuilder(base: base)
    for key in winnerOrder {
      closures.parents[key] = winners[key]!.entry.declaration.conformsTo.map(TypeIdentifier.key)
    }

    var catalog = TypeCatalog()
    for key in winnerOrder {
      let (entry, order) = winners[key]!
      let ancestors = closures.ancestors(of: key)
      let record = TypeRecord(
        declaration: entry.declaration, layer: entry.layer,
        parentKeys: closures.parents[key] ?? [], ancestorKeys: ancestors)
      catalog.records[key] = record
      if let source = entry.declaration.mimeCommentSource { catalog.commentSources[key] = source }
      catalog.addClaims(
        key: key, tags: entry.declaration.tags, layer: entry.layer, depth: ancestors.count,
        order: order, extensionWeights: entry.extensionWeights)
    }
    for (index, addition) in additions.enumerated() {
      let depth = base?.records[addition.key]?.ancestorKeys.count ?? 0
      catalog.addClaims(
        key: addition.key, tags: addition.tags, layer: .mimeDatabase, depth: depth,
        order: entries.count + index, extensionWeights: addition.extensionWeights,
        alwaysPreferred: false)
      catalog.tagAdditions[addition.key, default: [:]].merge(addition.tags) { $0 + $1 }
      if let source = addition.commentSource { catalog.commentSources[addition.key] = source }
    }
    catalog.sortClaims()
    return catalog
  }

  private mutating func addClaims(
    key: String, tags: [UTTagClass: [String]], layer: DeclarationLayer, depth: Int, order: Int,
    extensionWeights: [String: Int], alwaysPreferred: Bool? = nil
  ) {
    for (tagClass, values) in tags {
      for (position, value) in values.enumerated() {
        let normalized = TagNormalization.normalize(value, in: tagClass)
        var list = claims[tagClass]?[normalized] ?? []
        if list.contains(where: { $0.key == key }) { continue }
        list.append(
          TagClaim(
            key: key, layer: layer, isPreferred: alwaysPreferred ?? (position == 0),
            weight: tagClass == .filenameExtension ? extensionWeights[normalized] ?? 50 : 50,
            depth: depth, order: order))
        claims[tagClass, default: [:]][normalized] = list
      }
    }
  }

  /// Orders each tag's claims: lower layer, preferred tag, heavier glob, more specific type,
  /// earlier declaration.
  private mutating func sortClaims() {
    for (tagClass, byTag) in claims {
      var sorted = byTag
      for (tag, list) in byTag where list.count > 1 {
        sorted[tag] = list.sorted { a, b in
          if a.layer != b.layer { return a.layer < b.layer }
          if a.isPreferred != b.isPreferred { return a.isPreferred }
          if a.weight != b.weight { return a.weight > b.weight }
          if a.depth != b.depth { return a.depth > b.depth }
          return a.order < b.order
        }
      }
      claims[tagClass] = sorted
    }
  }
}

/// Computes conformance closures over a catalog being built and the catalog below it.
private struct ClosureBuilder {
  let base: TypeCatalog?
  var parents: [String: [String]] = [:]
  private var memo: [String: Set<String>] = [:]

  init(base: TypeCatalog?) { self.base = base }

  mutating func ancestors(of key: String) -> Set<String> {
    if let known = memo[key] { return known }
    var result = Set<String>()
    var stack = parents[key] ?? []
    while let next = stack.popLast() {
      guard next != key, result.insert(next).inserted else { continue }
      if let baseRecord = base?.records[next] {
        result.formUnion(baseRecord.ancestorKeys)
      } else if let known = memo[next] {
        result.formUnion(known)
      } else if let more = parents[next] {
        stack.append(contentsOf: more)
      } else if let payload = DynamicIdentifier.decode(next) {
        stack.append(contentsOf: payload.conformsTo.map(TypeIdentifier.key))
      }
    }
    result.remove(key)
    memo[key] = result
    return result
  }
}
