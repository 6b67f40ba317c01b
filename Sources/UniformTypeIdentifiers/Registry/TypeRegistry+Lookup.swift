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
    return record(forKey: key)?.ancestorKeys.contains(superKey) ?? false
  }

  /// The preferred declared type carrying `tag` that conforms to `superKey`, or `nil` when no
  /// declared type carries it.
  ///
  /// Precedence: system types, then exported, then imported declarations, then the MIME
  /// database; within a layer the type whose preferred tag it is, then the heavier glob, then
  /// the more specific type, then the earlier declaration.
  package func preferredRecord(
    tag: String, tagClass: UTTagClass, conformingTo superKey: String?
  ) -> TypeRecord? {
    let normalized = TagNormalization.normalize(tag, in: tagClass)
    if let key = firstClaim(system.claims(on: normalized, in: tagClass), superKey) {
      return system.records[key]
    }
    for requirement in [Requirement.declarations, .mimeDatabase] {
      let overlay = overlay(loading: requirement)
      if let key = firstClaim(overlay.claims(on: normalized, in: tagClass), superKey) {
        return record(forKey: key)
      }
    }
    if tagClass == .x11Target { return x11Fallback(tag, conformingTo: superKey) }
    return nil
  }

  /// Every declared type carrying `tag` that conforms to `superKey`, preferred first.
  package func allRecords(
    tag: String, tagClass: UTTagClass, conformingTo superKey: String?
  ) -> [TypeRecord] {
    let normalized = TagNormalization.normalize(tag, in: tagClass)
    let overlay = overlay(loading: .mimeDatabase)
    var seen = Set<String>()
    var records: [TypeRecord] = []
    for claim in system.claims(on: normalized, in: tagClass) + overlay.claims(on: normalized, in: tagClass)
    where seen.insert(claim.key).inserted {
      if let superKey, !conforms(claim.key, to: superKey) { continue }
      if let record = record(forKey: claim.key) { records.append(record) }
    }
    if records.isEmpty, tagClass == .x11Target,
      let record = x11Fallback(tag, conformingTo: superKey)
    {
      records.append(record)
    }
    return records
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

  private func firstClaim(_ claims: [TypeCatalog.TagClaim], _ superKey: String?) -> String? {
    guard let superKey else { return claims.first?.key }
    return claims.first { conforms($0.key, to: superKey) }?.key
  }

  /// An X11 target with no explicit tag: an atom that is a type identifier names that type;
  /// one that is a MIME type names the type of that MIME type.
  private func x11Fallback(_ target: String, conformingTo superKey: String?) -> TypeRecord? {
    if target.contains("/") {
      return preferredRecord(tag: target, tagClass: .mimeType, conformingTo: superKey)
    }
    if target.contains("."), TypeIdentifier.isValid(target),
      let record = record(forKey: TypeIdentifier.key(target)),
      superKey.map({ conforms(record.key, to: $0) }) ?? true
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
