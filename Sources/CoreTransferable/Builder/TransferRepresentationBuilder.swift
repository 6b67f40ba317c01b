import FoundationEssentials

/// The result builder of ``Transferable/transferRepresentation`` and
/// ``TransferRepresentation/body``: representations one per line, most preferred first.
///
/// ```swift
/// static var transferRepresentation: some TransferRepresentation {
///   CodableRepresentation(contentType: .profile)
///   if Settings.offersCSV {
///     DataRepresentation(exportedContentType: .commaSeparatedText) { $0.csvLine }
///   } else {
///     DataRepresentation(exportedContentType: .tabSeparatedText) { $0.tsvLine }
///   }
///   ProxyRepresentation(exporting: \.name)
/// }
/// ```
///
/// Beyond Apple's builder, this one also accepts `if`, `if`/`else` and more than ten
/// representations; `if` reads static state only, since the list describes the type. To
/// offer a representation for some values only, use
/// ``TransferRepresentation/exportingCondition(_:)``.
@resultBuilder
public struct TransferRepresentationBuilder<Item: Transferable> {
  /// Accepts a ``CodableRepresentation`` of `Item`, so that its encoder and decoder types are
  /// inferred.
  ///
  /// ```swift
  /// // CodableRepresentation<Profile, JSONEncoder, JSONDecoder>
  /// CodableRepresentation(contentType: .profile)
  /// ```
  public static func buildExpression<Encoder, Decoder>(
    _ content: CodableRepresentation<Item, Encoder, Decoder>
  ) -> CodableRepresentation<Item, Encoder, Decoder>
  where
    Item: Codable, Encoder: TopLevelEncoder, Decoder: TopLevelDecoder,
    Encoder.Output == Data, Decoder.Input == Data
  {
    content
  }

  /// Accepts a representation of `Item`.
  ///
  /// ```swift
  /// ProxyRepresentation(exporting: \.name)   // ProxyRepresentation<Profile, String>
  /// ```
  public static func buildExpression<Content: TransferRepresentation>(_ content: Content)
    -> Content
  where Content.Item == Item {
    content
  }

  /// A single representation is itself.
  ///
  /// ```swift
  /// static var transferRepresentation: some TransferRepresentation {
  ///   DataRepresentation(contentType: .data) { $0 } importing: { $0 }
  /// }
  /// ```
  public static func buildBlock<Content: TransferRepresentation>(_ content: Content) -> Content
  where Content.Item == Item {
    content
  }

  /// Several representations, kept in order.
  ///
  /// ```swift
  /// static var transferRepresentation: some TransferRepresentation {
  ///   CodableRepresentation(contentType: .profile)   // first choice
  ///   ProxyRepresentation(exporting: \.name)         // fallback
  /// }
  /// ```
  public static func buildBlock<each Content: TransferRepresentation>(
    _ content: repeat each Content
  ) -> TupleTransferRepresentation<Item, (repeat each Content)> {
    var entries: [RepresentationEntry<Item>] = []
    for child in repeat each content {
      entries += representationEntries(of: child, as: Item.self)
    }
    return TupleTransferRepresentation((repeat each content), entries: entries)
  }

  /// Representations under an `if` without `else`: present when the condition held.
  ///
  /// ```swift
  /// if Settings.exportsPNG {
  ///   DataRepresentation(exportedContentType: .png) { $0.pngData() }
  /// }
  /// ```
  public static func buildOptional<Content: TransferRepresentation>(_ content: Content?)
    -> _OptionalTransferRepresentation<Content>
  where Content.Item == Item {
    _OptionalTransferRepresentation(content)
  }

  /// The representations of the `if` branch of an `if`/`else`.
  ///
  /// ```swift
  /// if Settings.prefersCSV { csvRepresentation } else { tsvRepresentation }
  /// ```
  public static func buildEither<First: TransferRepresentation, Second: TransferRepresentation>(
    first content: First
  ) -> _EitherTransferRepresentation<First, Second>
  where First.Item == Item, Second.Item == Item {
    _EitherTransferRepresentation(.first(content))
  }

  /// The representations of the `else` branch of an `if`/`else`.
  ///
  /// ```swift
  /// if Settings.prefersCSV { csvRepresentation } else { tsvRepresentation }
  /// ```
  public static func buildEither<First: TransferRepresentation, Second: TransferRepresentation>(
    second content: Second
  ) -> _EitherTransferRepresentation<First, Second>
  where First.Item == Item, Second.Item == Item {
    _EitherTransferRepresentation(.second(content))
  }
}
