/// A representation offered only for the values that satisfy a condition.
///
/// Made by ``TransferRepresentation/exportingCondition(_:)``; imports are unaffected.
///
/// ```swift
/// let representation: _ConditionalTransferRepresentation<DataRepresentation<ProfilesArchive>> =
///   DataRepresentation(exportedContentType: .commaSeparatedText) { try $0.convertToCSV() }
///     .exportingCondition { $0.supportsCSV }
/// ```
public struct _ConditionalTransferRepresentation<Base: TransferRepresentation>:
  TransferRepresentation
{
  /// The base representation's item type.
  ///
  /// ```swift
  /// _ConditionalTransferRepresentation<DataRepresentation<Data>>.Item.self == Data.self   // true
  /// ```
  public typealias Item = Base.Item

  let base: Base
  let condition: @Sendable (Base.Item) -> Bool
}

extension _ConditionalTransferRepresentation {
  /// Never called: the conditional representation has no body.
  ///
  /// ```swift
  /// _ConditionalTransferRepresentation<DataRepresentation<Data>>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("_ConditionalTransferRepresentation has no body")
  }
}

extension _ConditionalTransferRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    representationEntries(of: base, as: Item.self).map { entry in
      entry.mapExporter { $0.filtered(by: condition) }
    }
  }
}

extension TransferRepresentation {
  /// Offers this representation for export only for the values where `condition` is `true`.
  ///
  /// The condition runs for each value whose content types are listed or exported. Imports
  /// are unaffected.
  ///
  /// ```swift
  /// DataRepresentation(contentType: .commaSeparatedText) { archive in
  ///   try archive.convertToCSV()
  /// } importing: { data in
  ///   try ProfilesArchive(csvData: data)
  /// }
  /// .exportingCondition { archive in archive.supportsCSV }
  /// ```
  ///
  /// - Parameter condition: Whether a value may be exported this way.
  /// - Returns: The representation, restricted to those values.
  public func exportingCondition(_ condition: @escaping @Sendable (Item) -> Bool)
    -> _ConditionalTransferRepresentation<Self>
  {
    _ConditionalTransferRepresentation(base: self, condition: condition)
  }
}
