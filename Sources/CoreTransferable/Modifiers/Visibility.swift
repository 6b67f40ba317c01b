/// A representation with a visibility.
struct VisibilityRepresentation<Base: TransferRepresentation>: TransferRepresentation {
  typealias Item = Base.Item

  let base: Base
  let visibility: TransferRepresentationVisibility
}

extension VisibilityRepresentation {
  var body: Never {
    preconditionFailure("VisibilityRepresentation has no body")
  }
}

extension VisibilityRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    representationEntries(of: base, as: Item.self).map { entry in
      var entry = entry
      entry.visibility = entry.visibility ?? visibility
      return entry
    }
  }
}

extension TransferRepresentation {
  /// Limits who may see this representation.
  ///
  /// An inner `visibility` wins over an outer one; representations with none are visible to
  /// ``TransferRepresentationVisibility/all``.
  ///
  /// ```swift
  /// CodableRepresentation(contentType: .profile)
  ///   .visibility(.ownProcess)   // drag and drop inside the app only
  /// ```
  ///
  /// - Parameter visibility: Who may see the representation.
  /// - Returns: The representation, with that visibility.
  public func visibility(_ visibility: TransferRepresentationVisibility)
    -> some TransferRepresentation<Item>
  {
    VisibilityRepresentation(base: self, visibility: visibility)
  }
}
