/// Several representations of one type, in order: what a builder block with more than one
/// line makes.
///
/// ```swift
/// static var transferRepresentation: some TransferRepresentation {
///   CodableRepresentation(contentType: .profile)
///   ProxyRepresentation(exporting: \.name)
/// }
/// // TupleTransferRepresentation<Profile,
/// //   (CodableRepresentation<…>, ProxyRepresentation<Profile, String>)>
/// ```
public struct TupleTransferRepresentation<Item: Transferable, Value: Sendable>:
  TransferRepresentation
{
  /// The representations, as a tuple.
  let value: Value
  /// The representations' entries, flattened when the builder made the tuple.
  let flattened: [RepresentationEntry<Item>]

  init(_ value: Value, entries: [RepresentationEntry<Item>]) {
    self.value = value
    self.flattened = entries
  }
}

extension TupleTransferRepresentation {
  /// Never called: the tuple hands its children over directly.
  ///
  /// ```swift
  /// typealias Bytes = DataRepresentation<Data>
  /// typealias Pair = TupleTransferRepresentation<Data, (Bytes, Bytes)>
  /// Pair.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("TupleTransferRepresentation has no body")
  }
}

extension TupleTransferRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] { flattened }
}
