import FoundationEssentials
import JSONText
import UniformTypeIdentifiers

/// `CompactJSON`: what parses re-serializes to bytes that parse to the same value, and
/// serializing that again gives the same bytes; `PropertyTree.parseJSON`, built on it,
/// accepts exactly the same documents.
let jsonTarget = FuzzTarget(name: "json") { bytes in
  let parsed = Result { () throws(CompactJSON.SyntaxError) in try CompactJSON.parse(bytes) }
  let tree = Result { () throws(PropertyTree.SyntaxError) in try PropertyTree.parseJSON(Data(bytes))
  }
  switch (parsed, tree) {
  case (.success, .failure(let error)):
    require(false, "PropertyTree refuses JSON that CompactJSON reads: \(error)")
  case (.failure, .success):
    require(false, "PropertyTree reads JSON that CompactJSON refuses")
  case (.failure(let error), .failure):
    require(
      (0...bytes.count).contains(error.offset),
      "a syntax error at \(error.offset), outside the \(bytes.count) bytes")
  case (.success(let value), .success):
    let serialized = value.serialized
    let reparsed = Result { () throws(CompactJSON.SyntaxError) in try CompactJSON.parse(serialized)
    }
    guard case .success(let again) = reparsed else {
      require(
        false, "serialized JSON does not parse: \(String(decoding: serialized, as: UTF8.self))")
      return
    }
    require(again == value, "serialized JSON parses to another value")
    require(again.serialized == serialized, "serializing twice gives other bytes")
    visit(value)
  }
}

/// Reads every accessor of every value, as message decoding does.
private func visit(_ value: CompactJSON) {
  _ = (value.string, value.bool, value.number, value.integer, value.unsigned, value["type"])
  if let integer = value.integer {
    require(CompactJSON.integer(integer).integer == integer, "an integer does not survive")
  }
  switch value {
  case .array(let elements): elements.forEach(visit)
  case .object(let members): members.forEach { visit($0.1) }
  default: break
  }
}
