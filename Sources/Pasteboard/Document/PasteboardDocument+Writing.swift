import FoundationEssentials
import UniformTypeIdentifiers

extension PasteboardDocument {
  /// Writes `items` as a package at `target`, atomically. See ``save(to:)``.
  static func write(_ items: [PasteboardItem], to target: URL) async throws {
    if items.contains(where: { $0.options.contains(.concealed) }) {
      throw PasteboardError.concealed
    }
    try checkReplaceable(target)
    AtomicDirectoryReplace.removeStaleSiblings(of: target)
    let staging = try AtomicDirectoryReplace.makeStagingDirectory(for: target)
    var committed = false
    defer { if !committed { DocumentFileSystem.removeTree(staging.path) } }

    var manifest = DocumentManifest(version: DocumentManifest.currentVersion, items: [])
    for (itemIndex, item) in items.enumerated() {
      var entries: [DocumentManifest.Representation] = []
      for (index, representation) in item.representations.enumerated() {
        try Task.checkCancellation()
        let type = representation.type
        let payload = try await item.payload(for: type)
        let name = DocumentManifest.fileName(item: itemIndex, representation: index, type: type)
        let path = staging.appendingPathComponent(name).path
        let byteCount = try await DocumentFileSystem.offload {
          try writeRepresentation(payload, to: path)
        }
        entries.append(.init(type: type.identifier, file: name, byteCount: byteCount))
      }
      manifest.items.append(
        .init(
          options: DocumentManifest.names(of: item.options),
          expirationDate: item.expirationDate.map(DocumentManifest.string(from:)),
          representations: entries))
    }
    try Task.checkCancellation()

    let manifestData = try manifest.encoded()
    try await DocumentFileSystem.offload {
      let manifestPath = staging.appendingPathComponent(DocumentManifest.fileName).path
      try FileIO.writeFile(manifestData, to: manifestPath, sync: true)
      try DocumentFileSystem.syncDirectory(staging.path)
      try AtomicDirectoryReplace.commit(staging, to: target)
    }
    committed = true
  }

  /// Writes one payload to a new file at `path`, flushed, and returns its size: data is
  /// written, a file is copied by the kernel (`sendfile(2)`), never read into memory.
  private static func writeRepresentation(_ payload: PasteboardPayload, to path: String) throws
    -> Int
  {
    switch payload {
    case .data(let data):
      try FileIO.writeFile(data, to: path, sync: true)
    case .file(let source):
      try FileIO.copyFile(source.path, to: path, sync: true)
    }
    guard case .regularFile(let size) = try DocumentFileSystem.entry(at: path) else {
      throw PasteboardError.io("\(path) vanished while it was written")
    }
    return size
  }

  /// Refuses to replace anything that is not a pasteboard document: a save must never remove
  /// a directory of someone's files because its name was given by mistake.
  private static func checkReplaceable(_ target: URL) throws {
    switch try DocumentFileSystem.entry(at: target.path) {
    case .missing:
      return
    case .directory:
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: target.path)
      } catch {
        throw PasteboardError.io("reading \(target.path): \(error.plainDescription)")
      }
      if names.isEmpty || names.contains(DocumentManifest.fileName) { return }
      throw PasteboardError.invalidDocument(
        path: target.path,
        reason: "it holds other files and no \(DocumentManifest.fileName); not replacing it")
    case .regularFile, .other:
      throw PasteboardError.invalidDocument(
        path: target.path, reason: "it is not a directory; not replacing it")
    }
  }
}
