import UniformTypeIdentifiers

/// A description of how a ``Transferable`` type converts to and from one or more content
/// types.
///
/// The built-in representations — ``CodableRepresentation``, ``DataRepresentation``,
/// ``FileRepresentation``, ``ProxyRepresentation`` — do the conversions. A custom
/// representation composes others in its ``body``, which lets several types share a list of
/// representations, or gives a long list a name:
///
/// ```swift
/// struct ProfileRepresentation: TransferRepresentation {
///   typealias Item = Profile
///
///   var body: some TransferRepresentation<Profile> {
///     CodableRepresentation(contentType: .profile)
///     ProxyRepresentation(exporting: \.name)
///   }
/// }
///
/// extension Profile: Transferable {
///   static var transferRepresentation: some TransferRepresentation {
///     ProfileRepresentation().suggestedFileName("Profile")
///   }
/// }
/// ```
///
/// Representations are values built again each time ``Transferable/transferRepresentation``
/// is read; they hold only `@Sendable` closures and content types.
public protocol TransferRepresentation<Item>: Sendable {
  /// The transferable type this representation converts.
  ///
  /// ```swift
  /// struct ProfileRepresentation: TransferRepresentation {
  ///   typealias Item = Profile
  ///   var body: some TransferRepresentation<Profile> {
  ///     CodableRepresentation(contentType: .profile)
  ///   }
  /// }
  /// ```
  associatedtype Item: Transferable

  /// The type of the representation's ``body``.
  ///
  /// `Never` for the built-in representations, which have no body.
  ///
  /// ```swift
  /// ProfileRepresentation.Body.self   // the opaque type of its `body`
  /// DataRepresentation<Data>.Body.self == Never.self   // true
  /// ```
  associatedtype Body: TransferRepresentation

  /// The representations this one is made of, most preferred first.
  ///
  /// ```swift
  /// var body: some TransferRepresentation<Profile> {
  ///   CodableRepresentation(contentType: .profile)
  ///   ProxyRepresentation(exporting: \.name)
  /// }
  /// ```
  @TransferRepresentationBuilder<Item> var body: Body { get }
}
