import JSONText
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    var object: [(String, CompactJSON)] = [
      ("identifier", .string(type.identifier)),
      ("declared", .bool(type.isDeclared)),
      ("dynamic", .bool(type.isDynamic)),
      ("public", .bool(type.isPublic)),
      ("declaredBy", .string(type._declarationSource)),
      ("tags", .object(type.tags.map { ($0.key.rawValue, .strings($0.value)) })),
      ("supertypes", .strings(type.supertypes.map(\.identifier).sorted())),
      ("conformsTo", parentTree(type, path: [])),
    ]
    if let description = type.localizedDescription {
      object.append(("description", .string(description)))
    }
    if let url = type.referenceURL { object.append(("referenceURL", .string(url.absoluteString))) }
    if let version = type.version { object.append(("version", .integer(version))) }
    return Output.json(.object(object)) + "\n"
  }

  private func parentTree(_ node: UTType, path: Set<UTType>) -> CompactJSON {
    guard !path.contains(node) else { return .array([]) }
    return .array(
      node._parents.map { parent in
        .object([
          ("identifier", .string(parent.identifier)),
          ("conformsTo", parentTree(parent, path: path.union([node]))),
        ])
      })
  }
}
