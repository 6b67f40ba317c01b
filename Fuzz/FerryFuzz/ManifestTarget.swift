import FoundationEssentials
import UniformTypeIdentifiers

@testable import Pasteboard

/// A pasteboard document's `manifest.json`: a manifest that decodes re-encodes to one that
/// decodes equal, and the checks `PasteboardDocument.open` makes of its names, options and
/// dates hold up; a date that reads writes out as text that reads back to the same text.
let manifestTarget = FuzzTarget(name: "manifest") { bytes in
  guard case .success(let manifest) = DocumentManifest.decode(Data(bytes)) else { return }
  require(
    manifest.version == DocumentManifest.currentVersion,
    "a manifest of version \(manifest.version) decoded")
  guard let encoded = try? manifest.encoded() else {
    require(false, "a decoded manifest cannot be encoded")
    return
  }
  guard case .success(let again) = DocumentManifest.decode(encoded) else {
    require(
      false, "an encoded manifest does not decode: \(String(decoding: encoded, as: UTF8.self))")
    return
  }
  require(again == manifest, "a manifest changes when encoded and decoded")
  for item in manifest.items {
    _ = DocumentManifest.options(named: item.options)
    if let text = item.expirationDate, let date = DocumentManifest.date(from: text) {
      let written = DocumentManifest.string(from: date)
      let reread = DocumentManifest.date(from: written)
      require(
        reread != nil, "expiration date '\(text)' is written as '\(written)', which does not read")
      if let reread {
        require(
          DocumentManifest.string(from: reread) == written,
          "expiration date '\(written)' does not survive")
      }
    }
    for representation in item.representations {
      _ = DocumentManifest.problem(withFileName: representation.file)
      if representation.type.utf8.count <= 255 {
        _ = UTType._isWellFormedIdentifier(representation.type)
      }
    }
  }
}
