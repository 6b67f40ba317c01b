import FoundationEssentials

/// An encoder that turns a whole `Encodable` value into one output, such as `JSONEncoder`.
///
/// Apple's platforms take this protocol from Combine, which Linux does not have; it is
/// declared here with the same shape so that ``CodableRepresentation`` accepts any encoder:
///
/// ```swift
/// struct CBOREncoder: TopLevelEncoder {
///   func encode<T: Encodable>(_ value: T) throws -> Data { … }
/// }
/// CodableRepresentation(contentType: .profile, encoder: CBOREncoder(), decoder: CBORDecoder())
/// ```
///
/// `JSONEncoder` and `PropertyListEncoder` conform.
public protocol TopLevelEncoder {
  /// The type of the encoded output, `Data` for the representations.
  ///
  /// ```swift
  /// JSONEncoder.Output.self == Data.self   // true
  /// ```
  associatedtype Output

  /// Encodes a value.
  ///
  /// ```swift
  /// let data = try JSONEncoder().encode(profile)
  /// ```
  func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A decoder that makes a whole `Decodable` value from one input, such as `JSONDecoder`.
///
/// Declared here with the shape of Combine's protocol of the same name:
///
/// ```swift
/// struct CBORDecoder: TopLevelDecoder {
///   func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { … }
/// }
/// ```
///
/// `JSONDecoder` and `PropertyListDecoder` conform.
public protocol TopLevelDecoder {
  /// The type of the input, `Data` for the representations.
  ///
  /// ```swift
  /// JSONDecoder.Input.self == Data.self   // true
  /// ```
  associatedtype Input

  /// Decodes a value of `type`.
  ///
  /// ```swift
  /// let profile = try JSONDecoder().decode(Profile.self, from: data)
  /// ```
  func decode<T: Decodable>(_ type: T.Type, from input: Input) throws -> T
}

/// `JSONEncoder` is the default encoder of ``CodableRepresentation``.
///
/// ```swift
/// CodableRepresentation(contentType: .profile)   // encodes with JSONEncoder()
/// ```
extension JSONEncoder: TopLevelEncoder {}

/// `JSONDecoder` is the default decoder of ``CodableRepresentation``.
///
/// ```swift
/// CodableRepresentation(contentType: .profile)   // decodes with JSONDecoder()
/// ```
extension JSONDecoder: TopLevelDecoder {}

/// Property lists:
///
/// ```swift
/// CodableRepresentation(
///   contentType: .propertyList, encoder: PropertyListEncoder(), decoder: PropertyListDecoder())
/// ```
extension PropertyListEncoder: TopLevelEncoder {}

/// Property lists, as for `PropertyListEncoder`.
///
/// ```swift
/// let profile = try PropertyListDecoder().decode(Profile.self, from: plist)
/// ```
extension PropertyListDecoder: TopLevelDecoder {}
