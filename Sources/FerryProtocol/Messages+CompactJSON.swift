import JSONText

/// The messages of a short paste in ``CompactJSON``: what `Codable` would write (keys sorted,
/// absent optionals left out) and read, for a fraction of its start-up cost.
extension HelloRequest {
  /// The request as ``CompactJSON``, as `Codable` would write it.
  package var compactJSON: CompactJSON {
    var members: [(String, CompactJSON)] = []
    if let client { members.append(("client", .string(client))) }
    members.append(("op", .string(op.rawValue)))
    members.append(("version", .integer(version)))
    return .object(members)
  }
}

extension ReadRequest {
  /// The request as ``CompactJSON``, as `Codable` would write it.
  package var compactJSON: CompactJSON {
    var members: [(String, CompactJSON)] = []
    if let inPlace { members.append(("inPlace", .bool(inPlace))) }
    members.append(("op", .string(op.rawValue)))
    if let pasteboard { members.append(("pasteboard", .string(pasteboard))) }
    members.append(("types", .array(types.map { .string($0) })))
    return .object(members)
  }
}

/// A message body that is not what it should be.
package struct CompactDecodingError: Error, CustomStringConvertible {
  /// What is wrong with the body.
  package var description: String
}

extension CompactJSON {
  /// The member `key`, required.
  package func required(_ key: String) throws(CompactDecodingError) -> CompactJSON {
    guard let value = self[key], value != .null else {
      throw CompactDecodingError(description: "no \(key)")
    }
    return value
  }

  /// The member `key`, required to be a string.
  package func requiredString(_ key: String) throws(CompactDecodingError) -> String {
    guard let value = try required(key).string else {
      throw CompactDecodingError(description: "\(key) is not a string")
    }
    return value
  }

  /// The member `key`, required to be an integer.
  package func requiredInteger(_ key: String) throws(CompactDecodingError) -> Int64 {
    guard let value = try required(key).integer else {
      throw CompactDecodingError(description: "\(key) is not an integer")
    }
    return value
  }

  /// The member `key`, required to be a count (an integer of zero or more).
  package func requiredUnsigned(_ key: String) throws(CompactDecodingError) -> UInt64 {
    guard let value = try required(key).unsigned else {
      throw CompactDecodingError(description: "\(key) is not a count")
    }
    return value
  }

  /// Parses a frame's body as an object.
  package static func object(in frame: Frame) throws(CompactDecodingError) -> CompactJSON {
    do {
      let value = try CompactJSON.parse(frame.body)
      guard case .object = value else {
        throw CompactDecodingError(description: "not a JSON object")
      }
      return value
    } catch let error as CompactDecodingError {
      throw error
    } catch {
      throw CompactDecodingError(description: "\(error)")
    }
  }
}

extension HelloResponse {
  /// Reads a `hello` answer from its compact JSON.
  package init(compact json: CompactJSON) throws(CompactDecodingError) {
    guard let pid = Int32(exactly: try json.requiredInteger("pid")) else {
      throw CompactDecodingError(description: "pid is out of range")
    }
    self.init(
      version: Int(try json.requiredInteger("version")), broker: try json.requiredString("broker"),
      pid: pid)
  }
}

extension ReadResponse {
  /// Reads a `read` answer from its compact JSON.
  package init(compact json: CompactJSON) throws(CompactDecodingError) {
    var file: FileReference?
    if let reference = json["file"], reference != .null {
      file = FileReference(
        path: try reference.requiredString("path"),
        device: try reference.requiredUnsigned("device"),
        inode: try reference.requiredUnsigned("inode"), size: try reference.requiredInteger("size"))
    }
    self.init(
      type: try json.requiredString("type"), requested: try json.requiredString("requested"),
      file: file)
  }
}

extension ErrorBody {
  /// Reads an ERROR frame's body from its compact JSON.
  package init(compact json: CompactJSON) throws(CompactDecodingError) {
    self.init(
      code: BrokerErrorCode(rawValue: try json.requiredString("code")),
      message: try json.requiredString("message"))
  }
}
