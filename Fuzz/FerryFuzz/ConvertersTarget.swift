import FoundationEssentials
import UniformTypeIdentifiers

@testable import Pasteboard

/// A converter declaration file: one converter or one problem per entry, never a crash, and
/// every problem one line;
/// a `jsonField` converter also reads its field out of the file's own tree, as it would
/// out of a payload.
let convertersTarget = FuzzTarget(name: "converters") { bytes in
  let contents = Data(bytes)
  let file: ConverterDeclarationFile
  do throws(PasteboardError) {
    file = try ConverterDeclarationFile(
      path: "/nonexistent/ferry-fuzz/converters.json", contents: contents,
      requiringConversions: false)
  } catch {
    // What `ferry register` prints: one line.
    require(!error.description.contains("\n"), "an error of more than one line")
    return
  }
  let converters = file.converters()
  require(
    converters.count == file.entries.count,
    "\(file.entries.count) entries gave \(converters.count) results")
  let tree = try? PropertyTree.parse(contents)
  for (index, result) in converters.enumerated() {
    _ = file.label(index)
    switch result {
    case .success(let converter as JSONFieldConverter):
      require(converter.source != converter.target, "a converter from a type to itself")
      if let tree, let value = try? converter.value(in: tree) {
        _ = try? JSONFieldConverter.export(value)
      }
    case .success(let converter as CommandConverter):
      require(converter.source != converter.target, "a converter from a type to itself")
    case .success:
      break
    case .failure(let diagnostic):
      require(!diagnostic.description.contains("\n"), "a diagnostic of more than one line")
      require(
        diagnostic.entry?.hasPrefix("FerryConversions[\(index)]") == true,
        "a diagnostic names another entry: \(diagnostic)")
    }
  }
}
