@testable import UniformTypeIdentifiers

/// The shared-mime-info database's compiled text files (`types`, `aliases`, `subclasses`,
/// `globs2`, in that order, separated by NUL bytes): every MIME type listed gets a well-formed
/// identifier, and the catalog built from them over the system types terminates whatever
/// cycles the subclasses hold.
let mimeDatabaseTarget = FuzzTarget(name: "mime-database") { bytes in
  let files = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map(
    Array.init)
  func file(_ index: Int) -> [UInt8]? { index < files.count ? files[index] : nil }
  let database = SharedMIMEDatabase.parse(
    types: file(0), aliases: file(1), subclasses: file(2), globs2: file(3))
  for (mimeType, identifier) in database.identifiers {
    require(
      UTType._isWellFormedIdentifier(identifier),
      "MIME type '\(mimeType)' got the malformed identifier '\(identifier)'")
  }
  let system = SystemTypeTable.catalog
  let catalog = TypeCatalog.build(
    entries: database.entries, additions: database.additions, over: system)
  for entry in database.entries {
    let key = TypeIdentifier.key(entry.declaration.identifier)
    require(
      catalog.records[key] != nil || system.records[key] != nil,
      "'\(entry.declaration.identifier)' has no record")
  }
}

/// The magic file (`magic`): parsing stops at the first fault with what it read, and sniffing
/// its sections against sample data — and the file itself — ends.
let mimeMagicTarget = FuzzTarget(name: "mime-magic") { bytes in
  let sections = MIMEMagic.parse(bytes)
  func check(_ match: MIMEMagic.Match) {
    require(
      match.mask == nil || match.mask?.count == match.value.count,
      "a mask of another length than its value")
    match.children.forEach(check)
  }
  for section in sections { section.matches.forEach(check) }
  let samples: [[UInt8]] = [
    [], Array("%PDF-1.7\n".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
    Array(repeating: 0, count: 300),
    bytes,
  ]
  for sample in samples {
    for section in sections { _ = section.matches.contains { MIMEMagic.matches($0, sample) } }
  }
}

/// A type's XML file (`<media>/<subtype>.xml`): its comments are picked out, and the one
/// chosen is the translation asked for, else the untranslated one.
let mimeXMLTarget = FuzzTarget(name: "mime-xml") { bytes in
  let document = String(decoding: bytes, as: UTF8.self)
  let comment = MIMEComments.parse(document, languages: ["de", "pt_BR"])
  if comment.english != nil {
    require(comment.localized != nil, "an untranslated comment but no comment chosen")
  }
  let untranslated = MIMEComments.parse(document, languages: [])
  require(
    untranslated.localized == untranslated.english,
    "with no languages, the comment chosen is not the untranslated one")
}
