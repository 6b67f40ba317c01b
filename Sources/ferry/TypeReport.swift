import Foundation
import UniformTypeIdentifiers

/// What `ferry type` prints about a type: as text for people, as JSON for scripts.
struct TypeReport {
  var type: UTType

  init(_ type: UTType) { self.type = type }

  private static let tagClassNames: [(UTTagClass, String)] = [
    (.filenameExtension, "extensions"), (.mimeType, "MIME types"), (.x11Target, "X11 targets"),
  ]

  func text() -> String {
    var out = type.identifier
    if let description = type.localizedDescription { out += " — \(description)" }
    out += "\n"
    for (tagClass, name) in Self.tagClassNames {
      if let values = type.tags[tagClass], !values.isEmpty {
        out += "  \(name): \(values.joined(separator: ", "))\n"
      }
    }
    for (tagClass, values) in type.tags.sorted(by: { $0.key.rawValue < $1.key.rawValue })
    where !Self.tagClassNames.contains(where: { $0.0 == tagClass }) {
      out += "  \(tagClass.rawValue): \(values.joined(separator: ", "))\n"
    }
    out += "  declared by: \(type._declarationSource)\n"
    if let url = type.referenceURL { out += "  reference: \(url.absoluteString)\n" }
    if let version = type.version { out += "  version: \(version)\n" }
    out += "conforms to:\n"
    out += tree(type, prefix: "", isLast: true, isRoot: true, path: [])
    return out
  }

  private func tree(_ node: UTType, prefix: String, isLast: Bool, isRoot: Bool, path: Set<UTType>)
    -> String
  {
    var out = isRoot ? "" : prefix + (isLast ? "└─ " : "├─ ")
    out += node.identifier + "\n"
    guard !path.contains(node) else { return out }
    let childPrefix = isRoot ? "" : prefix + (isLast ? "   " : "│  ")
    let parents = node._parents
    for (index, parent) in parents.enumerated() {
      out += tree(
        parent, prefix: childPrefix, isLast: index == parents.count - 1, isRoot: false,
        path: path.union([node]))
    }
    return out
  }

  func json() -> String {
    var object: [String: Any] = [
      "identifier": type.identifier,
      "declared": type.isDeclared,
      "dynamic": type.isDynamic,
      "public": type.isPublic,
      "declaredBy": type._declarationSource,
      "tags": Dictionary(uniqueKeysWithValues: type.tags.map { ($0.key.rawValue, $0.value) }),
      "supertypes": type.supertypes.map(\.identifier).sorted(),
      "conformsTo": parentTree(type, path: []),
    ]
    if let description = type.localizedDescription { object["description"] = description }
    if let url = type.referenceURL { object["referenceURL"] = url.absoluteString }
    if let version = type.version { object["version"] = version }
    let data = try! JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  private func parentTree(_ node: UTType, path: Set<UTType>) -> [[String: Any]] {
    guard !path.contains(node) else { return [] }
    return node._parents.map { parent in
      ["identifier": parent.identifier, "conformsTo": parentTree(parent, path: path.union([node]))]
    }
  }
}
