import FoundationEssentials

@testable import UniformTypeIdentifiers

/// A type declaration file, JSON or property list (XML or binary, through Ferry's own readers):
/// every entry loads or has a diagnostic, each diagnostic is one line, a second read gives
/// the same tree or the same error, and the tree `PropertyTree` reads writes out as JSON that
/// reads back to the same JSON.
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
  for diagnostic in file.diagnostics {
    require(!diagnostic.description.contains("\n"), "a diagnostic of more than one line")
  }
  let first = Result { () throws(PropertyTree.SyntaxError) in try PropertyTree.parse(contents) }
  let second = Result { () throws(PropertyTree.SyntaxError) in try PropertyTree.parse(contents) }
  switch (first, second) {
  case (.failure(let a), .failure(let b)):
    require(a.description == b.description, "two reads fail differently")
  case (.success(let a), .success(let b)):
    require(
      (try? PropertyTree.jsonData(a)) == (try? PropertyTree.jsonData(b)), "two reads differ")
  default:
    require(false, "one read succeeds and the other fails")
  }
  guard case .success(let tree) = first, let json = try? PropertyTree.jsonData(tree)
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
/// (Until Ferry read property lists itself, a binary list naming one key twice read
/// differently from one read to the next, `found-duplicate-key-bplist`; now the last wins.)
private func isEmptyDeclarationList(_ contents: Data) -> Bool {
  guard let parsed = try? PropertyTree.parse(contents) else { return false }
  guard let root = parsed as? [String: Any] else { return false }
  return ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"].allSatisfy {
    root[$0] == nil || (root[$0] as? [Any])?.isEmpty == true
  } && (root["UTExportedTypeDeclarations"] != nil || root["UTImportedTypeDeclarations"] != nil)
}
