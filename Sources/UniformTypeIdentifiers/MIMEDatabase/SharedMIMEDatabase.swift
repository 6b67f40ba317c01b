/// The freedesktop shared-mime-info database, read as declarations.
///
/// Every MIME type the database lists becomes a declared type. Where a system type already
/// has that MIME type (directly, through one of its aliases, or through the equivalence
/// table), the database only adds tags to it; otherwise the type gets a stable identifier
/// derived from the MIME type: `application/x-doom-wad` is `org.freedesktop.mime.application.x-doom-wad`.
/// `sub-class-of` becomes conformance, aliases become MIME tags, `*.ext` globs become filename
/// extensions with their glob weights. Descriptions are read per type, on demand
/// (``MIMEComments``).
///
/// The database's aliases are authoritative, as in the spec's lookups, which unalias a name
/// before anything else: a name that one package lists as an alias is that alias, even where
/// another package declares it as a type of its own (LibreOffice declares
/// `application/vnd.ms-word`, which freedesktop.org.xml lists as an alias of
/// `application/msword`). Its globs and parents go to the type the alias names, so a lookup
/// answers the same whichever packages added MIME files.
///
/// Reads the compiled files `update-mime-database` writes (`types`, `aliases`, `subclasses`,
/// `globs2`) in each directory of the XDG data path that has them.
/// Spec: https://specifications.freedesktop.org/shared-mime-info-spec/latest/
package struct SharedMIMEDatabase: Sendable {
  /// The identifier prefix of types derived from MIME types.
  package static let derivedPrefix = "org.freedesktop.mime."

  /// Types that only the database declares.
  package var entries: [TypeCatalog.Entry] = []
  /// Tags the database adds to types declared elsewhere.
  package var additions: [TypeCatalog.TagAddition] = []
  /// The identifier each MIME type the database lists as a type maps to: a type of its own
  /// that is also an alias maps to the identifier of the type the alias names.
  package var identifiers: [String: String] = [:]
  /// The `mime` directories read, in precedence order.
  package var directories: [String] = []

  /// The `mime` directories of the XDG data path that hold a compiled database.
  package static var defaultDirectories: [String] {
    Environment.dataSearchPath.map { $0 + "/mime" }.filter { FileBytes.exists($0 + "/types") }
  }

  /// Reads the database in `directories`, mapping MIME types onto the types of `system`.
  package static func load(
    directories: [String] = defaultDirectories, system: TypeCatalog = SystemTypeTable.catalog
  ) -> SharedMIMEDatabase {
    var raw = RawDatabase()
    for directory in directories { raw.read(directory: directory) }
    raw.foldAliasedTypes()
    var database = mapped(raw, system: system)
    database.directories = directories
    return database
  }

  /// The database the compiled files of one directory hold, given as their contents (`nil`
  /// for a missing file), mapped onto the types of `system`.
  package static func parse(
    types: [UInt8]?, aliases: [UInt8]?, subclasses: [UInt8]?, globs2: [UInt8]?,
    system: TypeCatalog = SystemTypeTable.catalog
  ) -> SharedMIMEDatabase {
    var raw = RawDatabase()
    raw.read(types: types, aliases: aliases, subclasses: subclasses, globs2: globs2)
    raw.foldAliasedTypes()
    return mapped(raw, system: system)
  }

  /// The types `raw` declares, mapped onto the types of `system`.
  private static func mapped(_ raw: RawDatabase, system: TypeCatalog) -> SharedMIMEDatabase {
    var database = SharedMIMEDatabase()
    database.assignIdentifiers(raw, system: system)
    database.declare(raw, system: system)
    return database
  }

  private mutating func assignIdentifiers(_ raw: RawDatabase, system: TypeCatalog) {
    var used = Set<String>()
    for mimeType in raw.types {
      if let key = Self.systemKey(for: mimeType, aliases: raw.aliasesOf[mimeType] ?? [], system) {
        identifiers[mimeType] = system.records[key]!.identifier
        continue
      }
      var identifier = Self.derivedIdentifier(for: mimeType)
      var suffix = 2
      while used.contains(identifier) {
        identifier = Self.derivedIdentifier(for: mimeType) + "-\(suffix)"
        suffix += 1
      }
      used.insert(identifier)
      identifiers[mimeType] = identifier
    }
    for (name, target) in raw.folded { identifiers[name] = identifiers[target] }
  }

  private static func systemKey(
    for mimeType: String, aliases: [String], _ system: TypeCatalog
  ) -> String? {
    if let equivalent = SystemTypeTable.mimeEquivalents[mimeType] {
      return TypeIdentifier.key(equivalent)
    }
    for name in [mimeType] + aliases {
      if let claim = system.claims(on: name, in: .mimeType).first { return claim.key }
    }
    return nil
  }

  /// `org.freedesktop.mime.<media>.<subtype>`, with characters other than ASCII letters,
  /// digits, `-` and `.` written as `-`, and a `/` or `.` that would follow another dot too.
  package static func derivedIdentifier(for mimeType: String) -> String {
    var identifier = derivedPrefix
    var previous: Character = "."
    for character in mimeType.lowercased() {
      let mapped: Character
      if character.isASCII && (character.isLetter || character.isNumber || character == "-") {
        mapped = character
      } else if (character == "/" || character == ".") && previous != "." {
        // Never two dots in a row: `text//plain` would give an empty component.
        mapped = "."
      } else {
        mapped = "-"
      }
      identifier.append(mapped)
      previous = mapped
    }
    while identifier.hasSuffix(".") { identifier.removeLast() }
    return identifier
  }

  private mutating func declare(_ raw: RawDatabase, system: TypeCatalog) {
    for mimeType in raw.types {
      guard let identifier = identifiers[mimeType] else { continue }
      let aliases = raw.aliasesOf[mimeType] ?? []
      let globs = raw.globs[mimeType] ?? []
      var weights: [String: Int] = [:]
      var extensions: [String] = []
      for glob in globs.sorted(by: { $0.weight > $1.weight }) where weights[glob.ext] == nil {
        weights[glob.ext] = glob.weight
        extensions.append(glob.ext)
      }
      var tags: [UTTagClass: [String]] = [.mimeType: [mimeType] + aliases]
      if !extensions.isEmpty { tags[.filenameExtension] = extensions }

      let key = TypeIdentifier.key(identifier)
      if system.records[key] != nil {
        additions.append(
          TypeCatalog.TagAddition(
            key: key, tags: tags, extensionWeights: weights, commentSource: mimeType))
        continue
      }
      let explicitParents = (raw.parentsOf[mimeType] ?? []).compactMap { parent in
        identifiers[raw.canonical(parent)]
      }.filter { $0 != identifier }
      let declaration = TypeDeclaration(
        identifier: identifier,
        conformsTo: explicitParents
          + Self.mediaParents(of: mimeType, hasExplicit: !explicitParents.isEmpty),
        tags: tags, mimeCommentSource: mimeType)
      entries.append(
        TypeCatalog.Entry(declaration: declaration, layer: .mimeDatabase, extensionWeights: weights)
      )
    }
  }

  /// The parents every type of a media class has: `text/*` is text, `image/*` an image.
  static func mediaParents(of mimeType: String, hasExplicit: Bool) -> [String] {
    let media = mimeType.prefix { $0 != "/" }
    switch media {
    case "text": return [hasExplicit ? "public.text" : "public.plain-text"]
    case "image": return ["public.image"]
    case "audio": return ["public.audio"]
    case "video": return ["public.movie"]
    case "font": return ["public.font"]
    case "model": return ["public.3d-content", "public.data"]
    case "message": return ["public.message", "public.data"]
    case "inode": return ["public.item"]
    case "x-content": return ["public.directory"]
    default: return ["public.data"]
    }
  }
}

/// The compiled database files, parsed but not yet mapped to types.
private struct RawDatabase {
  struct Glob {
    var ext: String
    var weight: Int
  }

  var types: [String] = []
  var known = Set<String>()
  var aliasTarget: [String: String] = [:]
  /// Every alias, in the order the files list them.
  var aliasOrder: [String] = []
  var aliasesOf: [String: [String]] = [:]
  var parentsOf: [String: [String]] = [:]
  var globs: [String: [Glob]] = [:]
  /// Names listed as types that are aliases too, and the type each names
  /// (``foldAliasedTypes()``).
  var folded: [(name: String, target: String)] = []

  /// The type `mimeType` names: the last type on its chain of aliases (an alias read from one
  /// directory may name an alias read from another), else the chain's end.
  func canonical(_ mimeType: String) -> String {
    let chain = aliasChain(of: mimeType)
    return chain.last(where: known.contains) ?? chain.last ?? mimeType
  }

  /// The names the aliases lead to from `mimeType`, in order (empty for a name that is no
  /// alias).
  func aliasChain(of mimeType: String) -> [String] {
    var chain: [String] = []
    var seen: Set<String> = [mimeType]
    var name = mimeType
    while let target = aliasTarget[name], seen.insert(target).inserted {
      chain.append(target)
      name = target
    }
    return chain
  }

  /// Makes every alias name the type at the end of its chain, and folds each name that is
  /// listed as a type and as an alias of another type into that type: its globs and parents
  /// become the other type's, and it is no longer a type of its own.
  mutating func foldAliasedTypes() {
    for name in types {
      let target = canonical(name)
      guard target != name, known.contains(target) else { continue }
      folded.append((name, target))
      for glob in globs.removeValue(forKey: name) ?? [] { globs[target, default: []].append(glob) }
      for parent in parentsOf.removeValue(forKey: name) ?? []
      where canonical(parent) != target && !(parentsOf[target]?.contains(parent) ?? false) {
        parentsOf[target, default: []].append(parent)
      }
    }
    if !folded.isEmpty {
      let names = Set(folded.map(\.name))
      types.removeAll { names.contains($0) }
      known.subtract(names)
    }
    aliasesOf = [:]
    for alias in aliasOrder {
      let target = canonical(alias)
      if target != alias { aliasesOf[target, default: []].append(alias) }
    }
  }

  mutating func read(directory: String) {
    func contents(_ name: String) -> [UInt8]? { FileBytes.read(directory + "/" + name) }
    read(
      types: contents("types"), aliases: contents("aliases"), subclasses: contents("subclasses"),
      globs2: contents("globs2"))
  }

  /// Reads one directory's files from their contents; `nil` is a missing file.
  mutating func read(types: [UInt8]?, aliases: [UInt8]?, subclasses: [UInt8]?, globs2: [UInt8]?) {
    for line in lines(types) {
      let name = TagNormalization.normalizeMIMEType(String(decoding: line, as: UTF8.self))
      if known.insert(name).inserted { self.types.append(name) }
    }
    for line in lines(aliases) {
      let fields = line.split(separator: 0x20)
      guard fields.count == 2 else { continue }
      let alias = string(fields[0])
      let target = string(fields[1])
      // The first directory's alias wins; an alias that would close a cycle is dropped.
      guard aliasTarget[alias] == nil, alias != target, !aliasChain(of: target).contains(alias)
      else { continue }
      aliasTarget[alias] = target
      aliasOrder.append(alias)
    }
    for line in lines(subclasses) {
      let fields = line.split(separator: 0x20)
      guard fields.count == 2 else { continue }
      let child = string(fields[0])
      let parent = string(fields[1])
      if !(parentsOf[child]?.contains(parent) ?? false) {
        parentsOf[child, default: []].append(parent)
      }
    }
    for line in lines(globs2) {
      // weight:type:glob[:flags]
      let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
      guard fields.count >= 3, let weight = Int(string(fields[0])) else { continue }
      let pattern = fields[2]
      guard pattern.starts(with: [UInt8(ascii: "*"), UInt8(ascii: ".")]) else { continue }
      let ext = pattern.dropFirst(2)
      guard !ext.isEmpty,
        !ext.contains(where: {
          $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "[")
        })
      else { continue }
      let name = string(fields[1])
      let normalized = TagNormalization.asciiLowercased(String(decoding: ext, as: UTF8.self))
      globs[name, default: []].append(Glob(ext: normalized, weight: weight))
    }
  }

  private func lines(_ bytes: [UInt8]?) -> [ArraySlice<UInt8>] {
    guard let bytes else { return [] }
    return FileBytes.lines(bytes).filter { $0.first != UInt8(ascii: "#") }
  }

  private func string(_ bytes: ArraySlice<UInt8>) -> String {
    TagNormalization.normalizeMIMEType(String(decoding: bytes, as: UTF8.self))
  }
}
