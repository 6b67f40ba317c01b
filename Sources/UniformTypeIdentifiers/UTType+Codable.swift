extension UTType: Codable {
  /// Decodes a type from its identifier string.
  ///
  /// Any well-formed identifier decodes, declared or not, so that data naming a type this
  /// process does not know round-trips unchanged.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a well-formed identifier.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let identifier = try container.decode(String.self)
    guard TypeIdentifier.isValid(identifier) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(identifier)' is not a type identifier")
    }
    self.init(uncheckedIdentifier: identifier)
  }

  /// Encodes the type as its identifier string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(identifier)
  }
}
