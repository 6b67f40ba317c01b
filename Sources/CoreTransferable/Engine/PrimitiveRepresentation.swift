/// A representation that flattens itself instead of through a `body`: the built-in
/// representations, the builder's containers and the modifiers.
protocol PrimitiveRepresentation<Item>: TransferRepresentation {
  /// The representation's entries, in order.
  func entries() -> [RepresentationEntry<Item>]
}

/// The entries of any representation of `Item`, in declaration order.
///
/// Built-in representations answer directly; custom ones are flattened through their `body`.
func representationEntries<Item: Transferable, Representation: TransferRepresentation>(
  of representation: Representation, as itemType: Item.Type
) -> [RepresentationEntry<Item>] {
  if let primitive = representation as? any PrimitiveRepresentation<Item> {
    return primitive.entries()
  }
  guard Representation.Body.self != Never.self else {
    preconditionFailure(
      "\(Representation.self) has no body and does not represent \(Item.self); "
        + "custom representations must implement `body` with representations of \(Item.self)")
  }
  return representationEntries(of: representation.body, as: Item.self)
}

extension Transferable {
  /// The type's representations, flattened, in declaration order.
  static var representationEntries: [RepresentationEntry<Self>] {
    if Self.self == Never.self { return [] }
    return CoreTransferable.representationEntries(of: transferRepresentation, as: Self.self)
  }

  /// The type's name as messages show it.
  static var transferTypeName: String { String(describing: Self.self) }
}
