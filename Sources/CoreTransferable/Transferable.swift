import UniformTypeIdentifiers

/// A type whose values can be copied, pasted and dragged, described by an ordered list of
/// representations.
///
/// A conforming type lists its representations in ``transferRepresentation``, richest first.
/// A receiver takes the first representation whose content type conforms to a type it
/// supports, so the order is a preference: your own format first, widely understood
/// fallbacks after it.
///
/// ```swift
/// extension UTType {
///   static let profile = UTType(exportedAs: "com.example.profile")
/// }
///
/// struct Profile: Codable, Transferable {
///   var name: String
///   var bio: String
///
///   static var transferRepresentation: some TransferRepresentation {
///     CodableRepresentation(contentType: .profile)   // receivers that know profiles: JSON
///     ProxyRepresentation(exporting: \.name)         // text-only receivers: the name
///   }
/// }
///
/// let profile = Profile(name: "Juan", bio: "…")
/// profile.exportedContentTypes()
/// // [com.example.profile, public.utf8-plain-text, public.plain-text]
/// try await profile.exported(as: .plainText)   // Data("Juan".utf8)
/// ```
///
/// The representations are ``CodableRepresentation``, ``DataRepresentation``,
/// ``FileRepresentation`` and ``ProxyRepresentation``, changed by the modifiers
/// ``TransferRepresentation/exportingCondition(_:)``,
/// ``TransferRepresentation/suggestedFileName(_:)-(String)`` and
/// ``TransferRepresentation/visibility(_:)``, and composed by custom representations with a
/// ``TransferRepresentation/body``.
///
/// `String`, `Data`, `URL` and `AttributedString` conform.
///
/// Values need not be `Sendable`, as on Apple's platforms: a value is only ever handed to the
/// `@Sendable` closures of its own representations. The type's metatype is shared between
/// tasks, so the protocol refines `SendableMetatype`: a conformance cannot be isolated to a
/// global actor. (Apple's current SDK refines `Sendable`; generic code that sends values
/// between tasks writes `T: Transferable & Sendable`, which compiles against both.)
public protocol Transferable: SendableMetatype {
  /// The type of the representation that describes how values of this type transfer.
  ///
  /// Inferred from ``transferRepresentation``:
  ///
  /// ```swift
  /// static var transferRepresentation: some TransferRepresentation {
  ///   DataRepresentation(contentType: .png) { $0.pngData } importing: { Sticker(png: $0) }
  /// }
  /// ```
  associatedtype Representation: TransferRepresentation

  /// The representations of the type, most preferred first.
  ///
  /// The property is a ``TransferRepresentationBuilder``: list several representations, one
  /// per line, and use `if`/`else` for representations that depend on static state.
  ///
  /// ```swift
  /// static var transferRepresentation: some TransferRepresentation {
  ///   CodableRepresentation(contentType: .profile)
  ///   ProxyRepresentation(exporting: \.name)
  /// }
  /// ```
  @TransferRepresentationBuilder<Self> static var transferRepresentation: Representation { get }
}
