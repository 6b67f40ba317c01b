import FoundationEssentials
import UniformTypeIdentifiers

/// Exports one field of a JSON representation as another type: the converter behind a
/// declaration file's `"jsonField"` conversions.
///
/// The field path is dotted: `name`, `address.city`, `members.0.name`. A component that is a
/// decimal number indexes an array (from 0) and names a key in an object, so `0` reaches both
/// `[…][0]` and `{"0": …}`. Keys that contain a dot cannot be reached.
///
/// What the field holds decides the bytes:
///
/// | value | exported as |
/// |---|---|
/// | string | its text, UTF-8 |
/// | number, `true`, `false` | its JSON text (`42`, `1.5`, `true`) |
/// | object, array | compact JSON, keys sorted |
/// | `null`, or no such field | an error naming the path; nothing is exported |
///
/// ```swift
/// let nameAsText = try JSONFieldConverter(
///   from: .profile, to: .utf8PlainText, fieldPath: "name")
/// ConverterRegistry.shared.register(nameAsText)
/// ```
///
/// It reads any type that conforms to its source type, and reads the whole payload: JSON is
/// parsed in memory.
public struct JSONFieldConverter: OneWayConverter {
  /// The JSON type read.
  public let source: UTType
  /// The type exported.
  public let target: UTType
  /// The dotted field path, as given.
  public let fieldPath: String
  private let components: [String]

  /// Creates a converter exporting the field at `fieldPath` of `source` JSON as `target`.
  ///
  /// - Parameters:
  ///   - source: The JSON type read (and the types conforming to it).
  ///   - target: The type exported.
  ///   - fieldPath: A dotted path such as `name` or `members.0.name`.
  /// - Throws: ``JSONFieldError/invalidPath(_:)`` when the path is empty or has an empty
  ///   component (`a..b`, `.a`).
  public init(from source: UTType, to target: UTType, fieldPath: String) throws {
    let components = fieldPath.split(separator: ".", omittingEmptySubsequences: false)
      .map(String.init)
    guard !fieldPath.isEmpty, !components.contains(where: \.isEmpty) else {
      throw JSONFieldError.invalidPath(fieldPath)
    }
    self.source = source
    self.target = target
    self.fieldPath = fieldPath
    self.components = components
  }

  /// Parses the payload as JSON and exports the field.
  ///
  /// - Throws: ``JSONFieldError`` when the payload is not JSON or the field is missing or
  ///   `null`.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    let root: Any
    do {
      root = try PropertyTree.parseJSON(payload.data())
    } catch {
      throw JSONFieldError.notJSON(source, reason: "\(error)")
    }
    return .data(try Self.export(try value(in: root)))
  }

  /// The value at the path, or an error naming the first component that is not there.
  func value(in root: Any) throws(JSONFieldError) -> Any {
    var current = root
    for (depth, component) in components.enumerated() {
      let reached = components[..<depth].joined(separator: ".")
      let parent = reached.isEmpty ? "the top level" : "'\(reached)'"
      switch current {
      case let object as [String: Any]:
        guard let next = object[component] else {
          throw JSONFieldError.missingField(
            path: fieldPath, reason: "\(parent) has no key '\(component)'")
        }
        current = next
      case let array as [Any]:
        guard component.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let index = Int(component)
        else {
          throw JSONFieldError.missingField(
            path: fieldPath, reason: "\(parent) is an array and '\(component)' is not an index")
        }
        guard index < array.count else {
          throw JSONFieldError.missingField(
            path: fieldPath,
            reason: "\(parent) has \(array.count) element\(array.count == 1 ? "" : "s")")
        }
        current = array[index]
      default:
        throw JSONFieldError.missingField(
          path: fieldPath, reason: "\(parent) is \(Self.kind(of: current)), not an object")
      }
    }
    if current is PropertyTree.Null { throw JSONFieldError.nullField(path: fieldPath) }
    return current
  }

  /// The bytes exported for a JSON value: a string's text, anything else as compact JSON.
  static func export(_ value: Any) throws -> Data {
    if let text = value as? String { return Data(text.utf8) }
    return try PropertyTree.jsonData(value)
  }

  private static func kind(of value: Any) -> String {
    switch value {
    case is String: "a string"
    case is PropertyTree.Null: "null"
    case is Bool: "a boolean"
    case is Int, is Double: "a number"
    default: "a value"
    }
  }
}

/// Why a JSON field could not be exported.
public enum JSONFieldError: Error, CustomStringConvertible, Hashable, Sendable {
  /// The field path is empty or has an empty component.
  case invalidPath(String)
  /// The payload is not JSON.
  case notJSON(UTType, reason: String)
  /// The JSON has no value at the path; `reason` names the first step that failed.
  case missingField(path: String, reason: String)
  /// The value at the path is `null`.
  case nullField(path: String)

  /// One line naming the field and the problem.
  public var description: String {
    switch self {
    case .invalidPath(let path):
      "'\(path)' is not a field path (dotted keys and indices, such as members.0.name)"
    case .notJSON(let type, let reason):
      "the \(type.identifier) data is not JSON: \(reason)"
    case .missingField(let path, let reason):
      "the JSON has no field '\(path)': \(reason)"
    case .nullField(let path):
      "the JSON field '\(path)' is null"
    }
  }
}
