import FerrySystem
import FoundationEssentials
import UniformTypeIdentifiers

/// A representation that transfers a `Codable` value as a whole, encoded as JSON unless you
/// pass another encoder and decoder.
///
/// The content type is normally your own exported type: receivers that know it get the whole
/// value back.
///
/// ```swift
/// extension UTType {
///   static let profile = UTType(exportedAs: "com.example.profile")
/// }
///
/// extension Profile: Transferable {
///   static var transferRepresentation: some TransferRepresentation {
///     CodableRepresentation(contentType: .profile)
///   }
/// }
/// ```
///
/// The encoder and decoder are used one call at a time, so classes such as `JSONEncoder` are
/// safe to share between concurrent transfers.
public struct CodableRepresentation<Item, Encoder, Decoder>: TransferRepresentation, Sendable
where
  Item: Transferable & Codable, Encoder: TopLevelEncoder, Decoder: TopLevelDecoder,
  Encoder.Output == Data, Decoder.Input == Data
{
  let contentType: UTType
  let coders: Coders<Encoder, Decoder>

  /// A representation that encodes the value as JSON.
  ///
  /// ```swift
  /// CodableRepresentation(contentType: .profile)
  /// CodableRepresentation(for: Profile.self, contentType: .profile)
  /// ```
  ///
  /// - Parameters:
  ///   - itemType: The value's type; inferred inside `transferRepresentation`.
  ///   - contentType: The type of the JSON document, usually your own exported type.
  public init(for itemType: Item.Type = Item.self, contentType: UTType)
  where Encoder == JSONEncoder, Decoder == JSONDecoder {
    self.init(
      for: itemType, contentType: contentType, encoder: JSONEncoder(), decoder: JSONDecoder())
  }

  /// A representation that encodes the value with `encoder` and decodes it with `decoder`.
  ///
  /// ```swift
  /// CodableRepresentation(
  ///   contentType: .profileArchive,
  ///   encoder: PropertyListEncoder(),
  ///   decoder: PropertyListDecoder())
  /// ```
  ///
  /// - Parameters:
  ///   - itemType: The value's type; inferred inside `transferRepresentation`.
  ///   - contentType: The type of the encoded document.
  ///   - encoder: Encodes a value to `Data`.
  ///   - decoder: Decodes a value from `Data`.
  public init(
    for itemType: Item.Type = Item.self, contentType: UTType, encoder: Encoder, decoder: Decoder
  ) {
    self.contentType = contentType
    self.coders = Coders(encoder: encoder, decoder: decoder)
  }
}

extension CodableRepresentation {
  /// Never called: a built-in representation has no body.
  ///
  /// ```swift
  /// CodableRepresentation<Profile, JSONEncoder, JSONDecoder>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("CodableRepresentation has no body")
  }
}

extension CodableRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    let coders = self.coders
    return [
      .coded(
        contentType: contentType,
        encode: UncheckedSendable { try coders.encode($0) },
        decode: UncheckedSendable { try coders.decode(Item.self, from: $0) })
    ]
  }
}

extension RepresentationEntry {
  /// A data entry over coding closures.
  ///
  /// Made outside the `Codable` context, so that the `@Sendable` exporter and importer
  /// capture no `Codable` conformance of `Item`; the closures themselves are made by the
  /// representation and only reach its lock-protected ``Coders``.
  static func coded(
    contentType: UTType,
    encode: UncheckedSendable<(Item) throws -> Data>,
    decode: UncheckedSendable<(Data) throws -> Item>
  ) -> Self {
    Self(
      contentType: contentType,
      exporter: EntryExporter(isFileBacked: false, allowsOpeningInPlace: false) { item in
        let item = UncheckedSendable(item)
        return .available(BoundExport(payload: .data { try encode.value(item.value) }))
      },
      importer: .data { data in try decode.value(data) })
  }
}

/// An encoder and a decoder behind locks: neither needs to be `Sendable` or thread-safe.
final class Coders<Encoder: TopLevelEncoder, Decoder: TopLevelDecoder>: Sendable
where Encoder.Output == Data, Decoder.Input == Data {
  private let encoder: TrackedMutex<UncheckedSendable<Encoder>>
  private let decoder: TrackedMutex<UncheckedSendable<Decoder>>

  init(encoder: Encoder, decoder: Decoder) {
    self.encoder = TrackedMutex(UncheckedSendable(encoder))
    self.decoder = TrackedMutex(UncheckedSendable(decoder))
  }

  func encode<Value: Encodable>(_ value: Value) throws -> Data {
    let value = UncheckedSendable(value)
    return try encoder.withLock { try $0.value.encode(value.value) }
  }

  func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    let decoded = try decoder.withLock { UncheckedSendable(try $0.value.decode(type, from: data)) }
    return decoded.value
  }
}
