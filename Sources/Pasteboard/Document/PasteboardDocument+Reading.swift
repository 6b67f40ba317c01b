import FoundationEssentials
import UniformTypeIdentifiers

extension PasteboardDocument {
  /// Opens the document at `url`, checking it whole before returning, and reading no
  /// representation's bytes.
  ///
  /// The checks: `url` is a directory holding a `manifest.json` of at most 16 MiB that
  /// decodes, of version 1; every type identifier is well formed (a known type, or one
  /// nobody declared, taken as imported as `UTType(importedAs:)` does); every representation's file is a plain name inside the
  /// package (no `/`, `..` or leading `.`), listed once, and is there as a regular file —
  /// not a symbolic link — of the size the manifest records; each type appears once per
  /// item; option names and dates are ones this build knows.
  ///
  /// The returned items' representations are `.file` URLs into the package, so a type's bytes
  /// are read only when someone asks for it. Staging siblings left by a save that crashed are
  /// ignored. When `url` is missing but the copy a crashed save had renamed aside exists, it
  /// is renamed back and opened.
  ///
  /// Opening never changes a document it rejects.
  ///
  /// ```swift
  /// let document = try PasteboardDocument.open(at: URL(fileURLWithPath: "clip.pasteboard"))
  /// try await document.items[0].payload(for: .mpeg4Movie).write(to: STDOUT_FILENO)
  /// ```
  ///
  /// - Parameter url: The package.
  /// - Returns: The document, counted as saved, with ``fileURL`` set to `url`.
  /// - Throws: ``PasteboardError/invalidDocument(path:reason:)`` naming the first problem
  ///   found; ``PasteboardError/io(_:)`` when the file system fails.
  public static func open(at url: URL) throws -> PasteboardDocument {
    try AtomicDirectoryReplace.recover(url)
    do {
      let items = try readItems(at: url)
      return PasteboardDocument(items: items, baselineAt: url)
    } catch let problem as DocumentProblem {
      throw PasteboardError.invalidDocument(path: url.path, reason: problem.reason)
    }
  }

  /// The type a manifest names: a known type, or — for a well-formed identifier nobody here
  /// declared, a program's own type such as `com.example.profile` — that type imported, as
  /// the broker takes it on a write. Otherwise a document saved from a pasteboard holding a
  /// program's type could not be opened in another process.
  private static func documentType(_ identifier: String) -> UTType? {
    if let known = UTType(identifier) { return known }
    guard identifier.utf8.count <= 255, UTType._isWellFormedIdentifier(identifier) else {
      return nil
    }
    return UTType(importedAs: identifier)
  }

  /// The items of the package at `url`, or the problem that makes it invalid.
  private static func readItems(at url: URL) throws -> [PasteboardItem] {
    switch try DocumentFileSystem.entry(at: url.path) {
    case .missing: throw DocumentProblem("there is no document at this path")
    case .directory: break
    case .regularFile, .other: throw DocumentProblem("it is not a directory")
    }
    let manifest = try readManifest(at: url)
    declareMarkerTypes()
    var fileNames = Set<String>()
    return try manifest.items.enumerated().map { itemIndex, item in
      let options: PasteboardItem.Options
      switch DocumentManifest.options(named: item.options) {
      case .success(let known): options = known
      case .failure(let unknown):
        throw DocumentProblem("item \(itemIndex) has an unknown option '\(unknown.name)'")
      }
      var expirationDate: Date?
      if let text = item.expirationDate {
        guard let date = DocumentManifest.date(from: text) else {
          throw DocumentProblem("item \(itemIndex) has an unreadable expiration date '\(text)'")
        }
        expirationDate = date
      }
      var types = Set<UTType>()
      let representations = try item.representations.enumerated().map { index, entry in
        let place = "item \(itemIndex), representation \(index)"
        guard let type = documentType(entry.type) else {
          throw DocumentProblem("'\(entry.type)' is not a type identifier (\(place))")
        }
        guard types.insert(type).inserted else {
          throw DocumentProblem("item \(itemIndex) lists \(type.identifier) twice")
        }
        if let problem = DocumentManifest.problem(withFileName: entry.file) {
          throw DocumentProblem("\(problem) (\(place))")
        }
        guard fileNames.insert(entry.file).inserted else {
          throw DocumentProblem("\(entry.file) is named twice (\(place))")
        }
        let file = url.appendingPathComponent(entry.file, isDirectory: false)
        try checkFile(file, named: entry.file, byteCount: entry.byteCount, place: place)
        return PasteboardRepresentation.file(file, type: type)
      }
      return PasteboardItem(
        representations: representations, options: options, expirationDate: expirationDate)
    }
  }

  /// The decoded manifest of the package at `url`.
  private static func readManifest(at url: URL) throws -> DocumentManifest {
    let name = DocumentManifest.fileName
    let path = url.appendingPathComponent(name).path
    switch try DocumentFileSystem.entry(at: path) {
    case .missing:
      throw DocumentProblem("\(name) is missing")
    case .regularFile(let size) where size > DocumentManifest.maximumSize:
      throw DocumentProblem(
        "\(name) is \(size) bytes, more than the \(DocumentManifest.maximumSize >> 20) MiB limit")
    case .regularFile:
      break
    case .directory, .other:
      throw DocumentProblem("\(name) is not a regular file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw DocumentProblem("\(name) cannot be read (\(error.plainDescription))")
    }
    switch DocumentManifest.decode(data) {
    case .success(let manifest): return manifest
    case .failure(let problem): throw problem
    }
  }

  /// Checks that a representation's file is a regular file of the recorded size.
  private static func checkFile(_ file: URL, named name: String, byteCount: Int, place: String)
    throws
  {
    switch try DocumentFileSystem.entry(at: file.path) {
    case .missing:
      throw DocumentProblem("\(name) is missing (\(place))")
    case .regularFile(let size) where size != byteCount:
      throw DocumentProblem(
        "\(name) is \(size) bytes, the manifest says \(byteCount) (\(place))")
    case .regularFile:
      return
    case .directory, .other:
      throw DocumentProblem("\(name) is not a regular file (\(place))")
    }
  }

  /// Declares the types this module declares in code, which exist only once used, so that a
  /// document naming them opens in a process that has not touched them yet.
  private static func declareMarkerTypes() {
    _ = [
      UTType.concealedMarker, .transientMarker, .passwordManagerHint, .uriList,
      .gnomeCopiedFiles, .latin1PlainText,
    ]
  }
}
