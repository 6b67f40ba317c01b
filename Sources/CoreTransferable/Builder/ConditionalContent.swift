/// The representations of an `if` without `else` in a ``TransferRepresentationBuilder``:
/// present when the condition held, none otherwise.
///
/// ```swift
/// if Settings.exportsPNG {
///   // _OptionalTransferRepresentation<DataRepresentation<Layer>>
///   DataRepresentation(exportedContentType: .png) { $0.pngData() }
/// }
/// ```
public struct _OptionalTransferRepresentation<Wrapped: TransferRepresentation>:
  TransferRepresentation
{
  /// The wrapped representation's item type.
  ///
  /// ```swift
  /// _OptionalTransferRepresentation<DataRepresentation<Data>>.Item.self == Data.self   // true
  /// ```
  public typealias Item = Wrapped.Item

  let wrapped: Wrapped?

  init(_ wrapped: Wrapped?) {
    self.wrapped = wrapped
  }
}

extension _OptionalTransferRepresentation {
  /// Never called: the optional representation hands its content over directly.
  ///
  /// ```swift
  /// _OptionalTransferRepresentation<DataRepresentation<Data>>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("_OptionalTransferRepresentation has no body")
  }
}

extension _OptionalTransferRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    wrapped.map { representationEntries(of: $0, as: Item.self) } ?? []
  }
}

/// The representations of one branch of an `if`/`else` in a ``TransferRepresentationBuilder``.
///
/// ```swift
/// if Settings.prefersCSV {
///   DataRepresentation(exportedContentType: .commaSeparatedText) { $0.csv }
/// } else {
///   DataRepresentation(exportedContentType: .tabSeparatedText) { $0.tsv }
/// }
/// ```
public struct _EitherTransferRepresentation<
  First: TransferRepresentation, Second: TransferRepresentation
>:
  TransferRepresentation
where First.Item == Second.Item {
  /// The branches' item type.
  ///
  /// ```swift
  /// typealias Bytes = DataRepresentation<Data>
  /// typealias Branches = _EitherTransferRepresentation<Bytes, Bytes>
  /// Branches.Item.self == Data.self   // true
  /// ```
  public typealias Item = First.Item

  enum Branch: Sendable {
    case first(First)
    case second(Second)
  }

  let branch: Branch

  init(_ branch: Branch) {
    self.branch = branch
  }
}

extension _EitherTransferRepresentation {
  /// Never called: the branch hands its content over directly.
  ///
  /// ```swift
  /// typealias Bytes = DataRepresentation<Data>
  /// typealias Branches = _EitherTransferRepresentation<Bytes, Bytes>
  /// Branches.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("_EitherTransferRepresentation has no body")
  }
}

extension _EitherTransferRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    switch branch {
    case .first(let content): representationEntries(of: content, as: Item.self)
    case .second(let content): representationEntries(of: content, as: Item.self)
    }
  }
}
