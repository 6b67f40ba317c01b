/// A representation whose exports carry a suggested file name.
struct SuggestedFileNameRepresentation<Base: TransferRepresentation>:
  TransferRepresentation
{
  typealias Item = Base.Item

  let base: Base
  let fileName: @Sendable (Base.Item) -> String?
}

extension SuggestedFileNameRepresentation {
  var body: Never {
    preconditionFailure("SuggestedFileNameRepresentation has no body")
  }
}

extension SuggestedFileNameRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    representationEntries(of: base, as: Item.self).map { entry in
      entry.mapExporter { $0.naming(fileName) }
    }
  }
}

extension TransferRepresentation {
  /// Suggests a file name for the exports of this representation.
  ///
  /// The name is used when the export becomes a file: dropped into a file manager, saved with
  /// ``Transferable/export(to:contentType:)``. Without an extension, the content type's
  /// preferred one is added. An inner `suggestedFileName` wins over an outer one.
  ///
  /// ```swift
  /// DataRepresentation(exportedContentType: .commaSeparatedText) { try $0.convertToCSV() }
  ///   .suggestedFileName("Profiles.csv")
  /// ```
  ///
  /// - Parameter fileName: The suggested name.
  /// - Returns: The representation, with the name.
  public func suggestedFileName(_ fileName: String) -> some TransferRepresentation<Item> {
    SuggestedFileNameRepresentation(base: self) { _ in fileName }
  }

  /// Suggests a file name, computed from each value, for the exports of this representation.
  ///
  /// ```swift
  /// CodableRepresentation(contentType: .profile)
  ///   .suggestedFileName { profile in "\(profile.name).profile" }
  /// ```
  ///
  /// - Parameter fileName: The suggested name of a value; `nil` for none.
  /// - Returns: The representation, with the names.
  public func suggestedFileName(_ fileName: @escaping @Sendable (Item) -> String?)
    -> some TransferRepresentation<Item>
  {
    SuggestedFileNameRepresentation(base: self, fileName: fileName)
  }
}
