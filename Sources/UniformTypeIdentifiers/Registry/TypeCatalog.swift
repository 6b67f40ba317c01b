/// A set of resolved types with an index from tags to the types that claim them.
///
/// The system catalog is built once; the registry builds an overlay catalog for declarations
/// and the MIME database whenever one of them changes. A catalog never changes once built.
package final class TypeCatalog: Sendable {
  /// One type's claim on a tag.
  package struct TagClaim: Sendable {
    package var record: TypeRecord
    package var layer: DeclarationLayer
    /// Whether the tag is the type's first of its class.
    package var isPreferred: Bool
    /// The glob weight of the MIME database (50 for declarations).
    package var weight: Int
    /// How many types the claimant conforms to: the more, the more specific.
    package var depth: Int
    /// The order of the declaration.
    package var order: Int

    package var key: String { record.key }
  }

  /// Records by key.
  package let records: [String: TypeRecord]
  /// Tags the MIME database adds to types that are declared elsewhere, by key.
  package let tagAdditions: [String: [UTTagClass: [String]]]
  /// The MIME type that localizes each type's description, by key.
  package let commentSources: [String: String]
  private let extensionClaims: TagIndex
  private let mimeTypeClaims: TagIndex
  private let x11TargetClaims: TagIndex
  private let otherClaims: [UTTagClass: TagIndex]

  /// An empty catalog.
  package convenience init() {
    self.init(records: [:], claims: [:], tagAdditions: [:], commentSources: [:])
  }

  private init(
    records: [String: TypeRecord], claims: [UTTagClass: [String: [TagClaim]]],
    tagAdditions: [String: [UTTagClass: [String]]], commentSources: [String: String]
  ) {
    self.records = records
    self.tagAdditions = tagAdditions
    self.commentSources = commentSources
    var claims = claims
    extensionClaims = TagIndex(claims.removeValue(forKey: .filenameExtension) ?? [:])
    mimeTypeClaims = TagIndex(claims.removeValue(forKey: .mimeType) ?? [:])
    x11TargetClaims = TagIndex(claims.removeValue(forKey: .x11Target) ?? [:])
    otherClaims = claims.mapValues(TagIndex.init)
  }

  /// The system catalog, from generated rows and claim lists.
  convenience init(systemRecords: [TypeRecord], claims: [UTTagClass: [String: [Int]]]) {
    var records: [String: TypeRecord] = [:]
    records.reserveCapacity(systemRecords.count)
    for record in systemRecords { records[record.key] = record }
    var tagClaims: [UTTagClass: [String: [TagClaim]]] = [:]
    for (tagClass, byTag) in claims {
      var list: [String: [TagClaim]] = [:]
      list.reserveCapacity(byTag.count)
      for (tag, rows) in byTag {
        list[tag] = rows.map { row in
          let record = systemRecords[row]
          let normalizedTags = (record.tags[tagClass] ?? []).map {
            TagNormalization.normalize($0, in: tagClass)
          }
          return TagClaim(
            record: record, layer: .system, isPreferred: normalizedTags.first == tag, weight: 50,
            depth: 0, order: row)
        }
      }
      tagClaims[tagClass] = list
    }
    self.init(records: records, claims: tagClaims, tagAdditions: [:], commentSources: [:])
  }

  /// The claims on `tag` (already normalized), best first.
  package func claims(on normalizedTag: String, in tagClass: UTTagClass) -> [TagClaim] {
    var tag = normalizedTag
    return tag.withUTF8 { Array(claims(on: NormalizedTag($0), in: tagClass)) }
  }

  /// The claims on `tag`, best first.
  func claims(on tag: NormalizedTag, in tagClass: UTTagClass) -> ArraySlice<TagClaim> {
    switch tagClass.kind {
    case .filenameExtension: extensionClaims.claims(on: tag)
    case .mimeType: mimeTypeClaims.claims(on: tag)
    case .x11Target: x11TargetClaims.claims(on: tag)
    case .other: otherClaims[tagClass]?.claims(on: tag) ?? []
    }
  }

  /// The record of the best claim on `tag` that `supertype` admits.
  func preferredRecord(
    on tag: NormalizedTag, in tagClass: UTTagClass, admittedBy supertype: TypeRegistry.Supertype
  ) -> TypeRecord? {
    switch tagClass.kind {
    case .filenameExtension: extensionClaims.preferredRecord(on: tag, admittedBy: supertype)
    case .mimeType: mimeTypeClaims.preferredRecord(on: tag, admittedBy: supertype)
    case .x11Target: x11TargetClaims.preferredRecord(on: tag, admittedBy: supertype)
    case .other: otherClaims[tagClass]?.preferredRecord(on: tag, admittedBy: supertype)
    }
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

  /// Builds a catalog from entries in priority order, over `base`.
  ///
  /// For each identifier the entry of the lowest layer wins, then the first one; identifiers
  /// that `base` already resolves are left to `base`. Conformance closures are computed here
  /// and never loop, whatever cycles the declarations contain.
  package static func build(
    entries: [Entry], additions: [TagAddition] = [], over base: TypeCatalog
  ) -> TypeCatalog {
    var winners: [String: (entry: Entry, order: Int)] = [:]
    var winnerOrder: [String] = []
    for (order, entry) in entries.enumerated() {
      let key = TypeIdentifier.key(entry.declaration.identifier)
      if base.records[key] != nil { continue }
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

    var records: [String: TypeRecord] = [:]
    var claims = ClaimTable()
    var commentSources: [String: String] = [:]
    var tagAdditions: [String: [UTTagClass: [String]]] = [:]
    for key in winnerOrder {
      let (entry, order) = winners[key]!
      let ancestors = closures.ancestors(of: key)
      let record = TypeRecord(
        declaration: entry.declaration, layer: entry.layer,
        parentKeys: closures.parents[key] ?? [], systemAncestors: ancestors.system,
        otherAncestorKeys: ancestors.other)
      records[key] = record
      if let source = entry.declaration.mimeCommentSource { commentSources[key] = source }
      claims.add(
        record: record, tags: entry.declaration.tags, layer: entry.layer, depth: ancestors.count,
        order: order, extensionWeights: entry.extensionWeights)
    }
    for (index, addition) in additions.enumerated() {
      guard let record = base.records[addition.key] ?? records[addition.key] else { continue }
      claims.add(
        record: record, tags: addition.tags, layer: .mimeDatabase,
        depth: record.ancestorCount, order: entries.count + index,
        extensionWeights: addition.extensionWeights, alwaysPreferred: false)
      tagAdditions[addition.key, default: [:]].merge(addition.tags) { $0 + $1 }
      if let source = addition.commentSource { commentSources[addition.key] = source }
    }
    return TypeCatalog(
      records: records, claims: claims.sorted(), tagAdditions: tagAdditions,
      commentSources: commentSources)
  }
}

/// Claims being collected for a catalog.
private struct ClaimTable {
  var claims: [UTTagClass: [String: [TypeCatalog.TagClaim]]] = [:]

  mutating func add(
    record: TypeRecord, tags: [UTTagClass: [String]], layer: DeclarationLayer, depth: Int,
    order: Int, extensionWeights: [String: Int], alwaysPreferred: Bool? = nil
  ) {
    for (tagClass, values) in tags {
      for (position, value) in values.enumerated() {
        let normalized = TagNormalization.normalize(value, in: tagClass)
        var list = claims[tagClass]?[normalized] ?? []
        if list.contains(where: { $0.record === record }) { continue }
        list.append(
          TypeCatalog.TagClaim(
            record: record, layer: layer, isPreferred: alwaysPreferred ?? (position == 0),
            weight: tagClass == .filenameExtension ? extensionWeights[normalized] ?? 50 : 50,
            depth: depth, order: order))
        claims[tagClass, default: [:]][normalized] = list
      }
    }
  }

  /// Each tag's claims, best first: lower layer, preferred tag, heavier glob, more specific
  /// type, earlier declaration.
  func sorted() -> [UTTagClass: [String: [TypeCatalog.TagClaim]]] {
    claims.mapValues { byTag in
      byTag.mapValues { list in
        list.count < 2
          ? list
          : list.sorted { a, b in
            if a.layer != b.layer { return a.layer < b.layer }
            if a.isPreferred != b.isPreferred { return a.isPreferred }
            if a.weight != b.weight { return a.weight > b.weight }
            if a.depth != b.depth { return a.depth > b.depth }
            return a.order < b.order
          }
      }
    }
  }
}

/// Computes conformance closures over a catalog being built and the catalog below it.
private struct ClosureBuilder {
  struct Closure {
    var system = SystemTypeSet.empty
    var other = Set<String>()
    var count: Int { system.count + other.count }
  }

  let base: TypeCatalog
  var parents: [String: [String]] = [:]
  private var memo: [String: Closure] = [:]

  init(base: TypeCatalog) { self.base = base }

  mutating func ancestors(of key: String) -> Closure {
    if let known = memo[key] { return known }
    var result = Closure()
    var visited: Set<String> = [key]
    var stack = parents[key] ?? []
    while let next = stack.popLast() {
      guard visited.insert(next).inserted else { continue }
      if let baseRecord = base.records[next] {
        if baseRecord.systemIndex >= 0 {
          result.system.insert(baseRecord.systemIndex)
        } else {
          result.other.insert(next)
        }
        result.system.formUnion(baseRecord.systemAncestors)
        result.other.formUnion(baseRecord.otherAncestorKeys)
        continue
      }
      result.other.insert(next)
      if let known = memo[next] {
        result.system.formUnion(known.system)
        result.other.formUnion(known.other)
      } else if let more = parents[next] {
        stack.append(contentsOf: more)
      } else if let payload = DynamicIdentifier.decode(next) {
        stack.append(contentsOf: payload.conformsTo.map(TypeIdentifier.key))
      }
    }
    result.other.remove(key)
    memo[key] = result
    return result
  }
}
