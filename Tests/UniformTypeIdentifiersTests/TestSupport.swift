import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // UniformTypeIdentifiersTests
  .deletingLastPathComponent()  // Tests
  .deletingLastPathComponent()

/// A directory under the system's temporary directory, removed when the body returns.
func withTemporaryDirectory<Result>(
  _ body: (String) throws -> Result
) throws -> Result {
  let path = try makeTemporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

/// A directory under the system's temporary directory, removed when the body returns.
func withTemporaryDirectory<Result>(
  _ body: (String) async throws -> Result
) async throws -> Result {
  let path = try makeTemporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}

private func makeTemporaryDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "/ferry-uttests-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes `text` to `directory/name`, creating intermediate directories, and returns the path.
@discardableResult
func write(_ text: String, to name: String, in directory: String) throws -> String {
  let path = directory + "/" + name
  try FileManager.default.createDirectory(
    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// A JSON declaration file with the given exported and imported entries.
func declarationJSON(exported: [[String: Any]] = [], imported: [[String: Any]] = []) throws
  -> String
{
  var root: [String: Any] = [:]
  if !exported.isEmpty { root["UTExportedTypeDeclarations"] = exported }
  if !imported.isEmpty { root["UTImportedTypeDeclarations"] = imported }
  let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
  return String(decoding: data, as: UTF8.self)
}

/// One declaration entry with the Info.plist keys.
func entry(
  _ identifier: String, conformsTo: [String] = ["public.data"], extensions: [String] = [],
  mimeTypes: [String] = [], description: String? = nil
) -> [String: Any] {
  var fields: [String: Any] = ["UTTypeIdentifier": identifier, "UTTypeConformsTo": conformsTo]
  var tags: [String: Any] = [:]
  if !extensions.isEmpty { tags["public.filename-extension"] = extensions }
  if !mimeTypes.isEmpty { tags["public.mime-type"] = mimeTypes }
  if !tags.isEmpty { fields["UTTypeTagSpecification"] = tags }
  if let description { fields["UTTypeDescription"] = description }
  return fields
}

/// A registry that reads only `declarationDirectories` and `mimeDirectories` (no MIME database
/// when that is empty), never the caller's XDG directories.
func privateRegistry(
  declarationDirectories: [String] = [], mimeDirectories: [String] = []
) -> TypeRegistry {
  TypeRegistry(
    configuration: .init(
      declarationDirectories: declarationDirectories, mimeDirectories: mimeDirectories))
}

extension TypeRegistry {
  /// The record of an identifier, whatever its case.
  func record(_ identifier: String) -> TypeRecord? {
    record(forKey: identifier.lowercased())
  }

  /// The identifier of the preferred type for a tag, or `nil` when only a dynamic type would do.
  func preferredIdentifier(
    _ tag: String, _ tagClass: UTTagClass, conformingTo superIdentifier: String? = nil
  ) -> String? {
    preferredRecord(tag: tag, tagClass: tagClass, conformingTo: superIdentifier?.lowercased())?
      .identifier
  }
}

/// The system MIME database directory, when it holds a compiled database.
let systemMIMEDirectory: String? = {
  let path = "/usr/share/mime"
  return FileManager.default.fileExists(atPath: path + "/types") ? path : nil
}()

/// The lines of a compiled MIME-database file, without comments.
func mimeDatabaseLines(_ name: String) -> [String] {
  guard let directory = systemMIMEDirectory,
    let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
  else { return [] }
  return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
}
