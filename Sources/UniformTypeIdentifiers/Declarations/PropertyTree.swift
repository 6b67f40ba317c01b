import FoundationEssentials
import JSONText

/// A JSON document or property list read into plain Swift values: `[String: Any]`, `[Any]`,
/// `String`, `Bool`, `Int` (a whole number that fits), `Double`, `Date`, `Data`, and
/// ``Null`` for JSON's `null`.
///
/// What `JSONSerialization` and `PropertyListSerialization` give, without full Foundation:
/// the declaration files of types and converters are read with it, and a command-line tool
/// that links full Foundation pays ~0.6 ms at every start
/// (docs/log/2026-12-02-performance.md, "Command-line tools").
///
/// ```swift
/// let root = try PropertyTree.parse(contents)  // JSON when it starts with { or [
/// let entries = (root as? [String: Any])?["UTExportedTypeDeclarations"] as? [Any]
/// ```
package enum PropertyTree {
  /// JSON's `null`.
  package struct Null: Hashable, Sendable {}

  /// Why a document could not be read: the decoder's own words.
  package struct SyntaxError: Error, CustomStringConvertible {
    package var description: String
  }

  /// Reads `contents` as JSON when its first non-blank byte is `{` or `[`, else as a
  /// property list (XML or binary).
  ///
  /// - Throws: ``SyntaxError``; ``isJSON(_:)`` says which syntax was tried.
  package static func parse(_ contents: Data) throws(SyntaxError) -> Any {
    isJSON(contents) ? try parseJSON(contents) : try parsePropertyList(contents)
  }

  /// Whether ``parse(_:)`` takes `contents` for JSON.
  package static func isJSON(_ contents: Data) -> Bool {
    let first = contents.first { !" \t\r\n".utf8.contains($0) }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }

  /// Reads `contents` as JSON; a bare value (a string, a number) is a document too. Numbers
  /// become `Int` when whole and in range, else `Double`; of a repeated key, the last wins.
  package static func parseJSON(_ contents: Data) throws(SyntaxError) -> Any {
    let bytes = [UInt8](contents)
    do {
      return tree(try CompactJSON.parse(bytes))
    } catch {
      throw SyntaxError(description: "unexpected input \(position(of: error.offset, in: bytes))")
    }
  }

  /// A `CompactJSON` value as the plain values above.
  private static func tree(_ value: CompactJSON) -> Any {
    switch value {
    case .null: return Null()
    case .bool(let flag): return flag
    case .number(let text):
      if let whole = Int(text) { return whole }
      return Double(text) ?? 0
    case .string(let text): return text
    case .array(let elements): return elements.map(tree)
    case .object(let members):
      var object: [String: Any] = [:]
      for (key, member) in members { object[key] = tree(member) }
      return object
    }
  }

  /// "around line 3, column 7" for a byte offset: what an author looks for in an editor.
  private static func position(of offset: Int, in bytes: [UInt8]) -> String {
    let before = bytes.prefix(offset)
    let line = before.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
    return offset >= bytes.count
      ? "at the end (line \(line))" : "around line \(line), column \(column)"
  }

  /// Reads `contents` as a property list, binary (`bplist00`) or XML, with readers of
  /// Ferry's own that check every length and reference before reading it
  /// (``BinaryPropertyList``, ``XMLPropertyList``): FoundationEssentials' decoder traps on some
  /// malformed binary lists, and a declaration file is anyone's bytes.
  ///
  /// A binary property list names its objects by reference, so a few hundred bytes can hold a
  /// cycle or a tree of billions of values; past ``maximumDepth`` levels or ``maximumValues``
  /// values the list is refused instead of read for ever.
  package static func parsePropertyList(_ contents: Data) throws(SyntaxError) -> Any {
    let bytes = [UInt8](contents)
    if BinaryPropertyList.isBinary(bytes) {
      do {
        return try BinaryPropertyList.read(bytes)
      } catch {
        throw SyntaxError(description: error.description)
      }
    }
    guard
      bytes.first(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "<")
        || bytes.starts(with: [0xEF, 0xBB, 0xBF])
    else {
      throw SyntaxError(description: "neither JSON, an XML property list nor a binary one")
    }
    do {
      return try XMLPropertyList.read(bytes)
    } catch {
      throw SyntaxError(description: error.description)
    }
  }

  /// The most levels a property list may nest: as many as a JSON document may
  /// (`CompactJSON`'s limit).
  package static let maximumDepth = 64
  /// The most values a property list may hold, counting each use of a shared object (and each
  /// key): ten times a declaration file of a hundred types, which bounds the time and memory a
  /// hostile file costs.
  package static let maximumValues = 10_000

  /// Writes `value` (made of the types above) as compact JSON with sorted keys, slashes
  /// unescaped.
  package static func jsonData(_ value: Any) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(Node(value))
  }

  /// `value` as a `Double` when it is a number (whole or not), never for a `Bool`.
  package static func number(_ value: Any) -> Double? {
    switch value {
    case let whole as Int: Double(whole)
    case let real as Double: real
    default: nil
    }
  }

  /// One value of the tree, encoded to JSON.
  private struct Node: Encodable {
    var value: Any

    init(_ value: Any) { self.value = value }

    func encode(to encoder: any Encoder) throws {
      switch value {
      case let members as [String: Any]:
        var object = encoder.container(keyedBy: Key.self)
        for (key, member) in members { try object.encode(Node(member), forKey: Key(key)) }
      case let elements as [Any]:
        var array = encoder.unkeyedContainer()
        for element in elements { try array.encode(Node(element)) }
      default:
        var single = encoder.singleValueContainer()
        switch value {
        case is Null: try single.encodeNil()
        case let flag as Bool: try single.encode(flag)
        case let whole as Int: try single.encode(whole)
        case let real as Double: try single.encode(real)
        case let text as String: try single.encode(text)
        case let date as Date: try single.encode(date)
        case let data as Data: try single.encode(data)
        default:
          throw EncodingError.invalidValue(
            value,
            .init(
              codingPath: encoder.codingPath, debugDescription: "not a JSON or property-list value")
          )
        }
      }
    }
  }

  /// Any member name.
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
