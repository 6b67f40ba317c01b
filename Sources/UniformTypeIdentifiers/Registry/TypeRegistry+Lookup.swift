extension TypeRegistry {
  /// The record for an identifier's key: system, then declarations, then dynamic, then the
  /// MIME database (read only for identifiers derived from it).
  package func record(forKey key: String) -> TypeRecord? {
    if let record = system.records[key] { return record }
    if let record = overlay(loading: .declarations).records[key] { return record }
    if key.hasPrefix(DynamicIdentifier.prefix) { return dynamicRecord(key) }
    if key.hasPrefix(SharedMIMEDatabase.derivedPrefix) {
      return overlay(loading: .mimeDatabase).records[key]
    }
    return nil
  }

  /// Whether the type `key` conforms to `superKey` (reflexive).
  package func conforms(_ key: String, to superKey: String) -> Bool {
    if key == superKey { return true }
    guard let record = record(forKey: key) else { return false }
    if let superRecord = system.records[superKey] { return record.conforms(to: superRecord) }
    return record.otherAncestorKeys.contains(superKey)
  }

  /// What a tag lookup's result must conform to.
  package enum Supertype {
    /// Any type.
    case any
    /// Types conforming to the system type of this row: a value with no reference to
    /// retain, tested with a bit test (the default supertype, `public.data`, is one).
    case system(Int)
    /// Types conforming to this resolved type, not a system type.
    case record(TypeRecord)
    /// The type with this key only (nothing declares it).
    case undeclared(String)

    package init(key: String?, in registry: TypeRegistry) {
      guard let key else {
        self = .any
        return
      }
      self = registry.record(forKey: key).map(Supertype.init(record:)) ?? .undeclared(key)
    }

    /// Types conforming to `type`; any type for `nil`. (A function, not an initializer, so
    /// that `type` is borrowed, not copied.)
    static func conforming(to type: UTType?) -> Supertype {
      switch type?.storage {
      case nil: .any
      case .system(let row): .system(Int(row))
      case .name: type?.record.map(Supertype.init(record:)) ?? .undeclared(type?.key ?? "")
      }
    }

    /// Types conforming to `record`'s type.
    init(record: TypeRecord) {
      self = record.systemIndex >= 0 ? .system(record.systemIndex) : .record(record)
    }

    @inline(__always)
    func admits(_ record: TypeRecord) -> Bool {
      switch self {
      case .any: true
      case .system(let index): record.systemIndex == index || record.systemAncestors.contains(index)
      case .record(let supertype): record.conforms(to: supertype)
      case .undeclared(let key): record.key == key
      }
    }
  }

  /// The preferred declared type carrying `tag` that conforms to `superKey`, or `nil` when no
  /// declared type carries it.
  package func preferredRecord(
    tag: String, tagClass: UTTagClass, conformingTo superKey: String?
  ) -> TypeRecord? {
    preferredRecord(tag: tag, tagClass: tagClass, conformingTo: Supertype(key: superKey, in: self))
  }

  /// The preferred declared type carrying `tag` that `supertype` admits, or `nil`.
  ///
  /// Precedence: system types, then exported, then imported declarations, then the MIME
  /// database; within a layer the type whose preferred tag it is, then the heavier glob, then
  /// the more specific type, then the earlier declaration.
  package func preferredRecord(
    tag: String, tagClass: UTTagClass, conformingTo supertype: Supertype
  ) -> TypeRecord? {
    TagNormalization.withNormalized(tag, in: tagClass) { normalized in
      if let record = system.preferredRecord(on: normalized, in: tagClass, admittedBy: supertype) {
        return record
      }
      // A target naming a system type by MIME type or identifier needs no file read.
      if tagClass == .x11Target, let record = systemX11Fallback(tag, conformingTo: supertype) {
        return record
      }
      var (overlay, loaded) = loadedOverlay(atLeast: .declarations)
      while true {
        if let record = overlay.preferredRecord(
          on: normalized, in: tagClass, admittedBy: supertype)
        {
          return record
        }
        if loaded == .mimeDatabase { break }
        (overlay, loaded) = loadedOverlay(atLeast: .mimeDatabase)
      }
      if tagClass == .x11Target { return x11Fallback(tag, conformingTo: supertype) }
      return nil
    }
  }

  /// Every declared type carrying `tag` that conforms to `superKey`, preferred first.
  package func allRecords(
    tag: String, tagClass: UTTagClass, conformingTo superKey: String?
  ) -> [TypeRecord] {
    let supertype = Supertype(key: superKey, in: self)
    let overlay = overlay(loading: .mimeDatabase)
    var records = TagNormalization.withNormalized(tag, in: tagClass) { normalized in
      let systemClaims = system.claims(on: normalized, in: tagClass)
      let overlayClaims = overlay.claims(on: normalized, in: tagClass)
      var records: [TypeRecord] = []
      records.reserveCapacity(systemClaims.count + overlayClaims.count)
      Self.collect(systemClaims, admittedBy: supertype, into: &records)
      Self.collect(overlayClaims, admittedBy: supertype, into: &records)
      return records
    }
    if records.isEmpty, tagClass == .x11Target,
      let record = x11Fallback(tag, conformingTo: supertype)
    {
      records.append(record)
    }
    return records
  }

  /// Appends the records of `claims` that `supertype` admits and `records` lacks.
  private static func collect(
    _ claims: ArraySlice<TypeCatalog.TagClaim>, admittedBy supertype: Supertype,
    into records: inout [TypeRecord]
  ) {
    for claim in claims
    where supertype.admits(claim.record) && !records.contains(where: { $0.key == claim.key }) {
      records.append(claim.record)
    }
  }

  /// The tags of `key`, with those the MIME database adds when it is loaded.
  package func tags(ofKey key: String, includingMIMEDatabase: Bool) -> [UTTagClass: [String]] {
    guard let record = record(forKey: key) else { return [:] }
    guard includingMIMEDatabase, record.layer == .system,
      let additions = overlay(loading: .mimeDatabase).tagAdditions[key]
    else { return record.tags }
    var tags = record.tags
    for (tagClass, values) in additions {
      var list = tags[tagClass] ?? []
      let present = Set(list.map { TagNormalization.normalize($0, in: tagClass) })
      list += values.filter { !present.contains(TagNormalization.normalize($0, in: tagClass)) }
      tags[tagClass] = list
    }
    return tags
  }

  /// The MIME type whose database entry localizes `key`'s description.
  package func commentSource(ofKey key: String) -> String? {
    guard let record = record(forKey: key) else { return nil }
    if let source = record.mimeCommentSource { return source }
    guard record.layer == .system else { return nil }
    return overlay(loading: .mimeDatabase).commentSources[key]
  }

  /// An X11 target with no explicit tag: an atom that is a type identifier names that type;
  /// one that is a MIME type names the type of that MIME type.
  private func x11Fallback(_ target: String, conformingTo supertype: Supertype) -> TypeRecord? {
    if target.contains("/") {
      return preferredRecord(tag: target, tagClass: .mimeType, conformingTo: supertype)
    }
    if target.contains("."), TypeIdentifier.isValid(target),
      let record = record(forKey: TypeIdentifier.key(target)), supertype.admits(record)
    {
      return record
    }
    return nil
  }

  /// The system type an X11 target names through its MIME type or its identifier, found
  /// without reading declaration files or the MIME database.
  private func systemX11Fallback(
    _ target: String, conformingTo supertype: Supertype
  ) -> TypeRecord? {
    if target.contains("/") {
      return TagNormalization.withNormalized(target, in: .mimeType) {
        system.preferredRecord(on: $0, in: .mimeType, admittedBy: supertype)
      }
    }
    if target.contains("."), let record = system.records[TypeIdentifier.key(target)],
      supertype.admits(record)
    {
      return record
    }
    return nil
  }

  /// A record synthesized from a `dyn.` identifier.
  func dynamicRecord(_ key: String) -> TypeRecord? {
    guard let payload = DynamicIdentifier.decode(key) else { return nil }
    var ancestors = Set<String>()
    let parentKeys = payload.conformsTo.map(TypeIdentifier.key)
    for parent in parentKeys where parent != key {
      ancestors.insert(parent)
      if let record = record(forKey: parent) { ancestors.formUnion(record.ancestorKeys) }
    }
    var tags: [UTTagClass: [String]] = [:]
    for (tagClass, values) in payload.tags { tags[tagClass, default: []] += values }
    return TypeRecord(
      declaration: TypeDeclaration(identifier: key, conformsTo: payload.conformsTo, tags: tags),
      layer: .dynamic, parentKeys: parentKeys, ancestorKeys: ancestors)
  }
}
