import FoundationEssentials

@testable import UniformTypeIdentifiers

/// A type declaration file, JSON or property list (XML or binary): every entry loads or
/// has a diagnostic, and the tree `PropertyTree` reads writes out as JSON that reads back to
/// the same JSON.
let declarationsTarget = FuzzTarget(name: "declarations") { bytes in
  let contents = Data(bytes)
  let file = DeclarationFile(path: "fuzz.json", contents: contents)
  for item in file.items {
    require(!item.declaration.identifier.isEmpty, "an entry loaded without an identifier")
  }
  if file.items.isEmpty {
    require(
      !file.diagnostics.isEmpty || isEmptyDeclarationList(contents),
      "a file with nothing in it has no diagnostic")
  }
  for diagnostic in file.diagnostics { _ = diagnostic.description }
  guard let tree = try? PropertyTree.parse(contents), let json = try? PropertyTree.jsonData(tree)
  else { return }
  guard let reread = try? PropertyTree.parseJSON(json) else {
    require(
      false, "PropertyTree's own JSON does not read back: \(String(decoding: json, as: UTF8.self))")
    return
  }
  let rewritten = try? PropertyTree.jsonData(reread)
  require(rewritten == json, "PropertyTree's JSON changes when read back and written again")
}

/// Whether the file declares empty lists only, which loads nothing and needs no diagnostic.
///
/// A binary property list whose dictionary names one key twice (two key references to equal
/// strings) reads differently from one read to the next: Foundation's reader keeps one of the
/// two values by the order of a dictionary it builds, which varies with the instance. When
/// the value it keeps is malformed the read fails, else it succeeds. A read that fails here
/// after `DeclarationFile`'s succeeded is that case, not a broken invariant
/// (`Fuzz/Seeds/declarations/found-duplicate-key-bplist`, docs/FUZZING.md).
private func isEmptyDeclarationList(_ contents: Data) -> Bool {
  guard let parsed = try? PropertyTree.parse(contents) else { return true }
  guard let root = parsed as? [String: Any] else { return false }
  return ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"].allSatisfy {
    root[$0] == nil || (root[$0] as? [Any])?.isEmpty == true
  } && (root["UTExportedTypeDeclarations"] != nil || root["UTImportedTypeDeclarations"] != nil)
}
