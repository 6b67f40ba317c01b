/// A resolved type: the winning declaration of an identifier, with its conformance closure.
///
/// Records are immutable; a registry change builds new ones.
package final class TypeRecord: Sendable {
  /// The identifier as declared.
  package let identifier: String
  /// The lowercased identifier, the key of every lookup.
  package let key: String
  /// The keys of the direct parents.
  package let parentKeys: [String]
  /// Every key this type conforms to, directly or not, excluding its own.
  package let ancestorKeys: Set<String>
  /// Tags by class, preferred first.
  package let tags: [UTTagClass: [String]]
  /// The English description.
  package let description: String?
  /// `UTTypeReferenceURL`.
  package let referenceURL: String?
  /// `UTTypeVersion`.
  package let version: Int?
  /// The layer of the winning declaration.
  package let layer: DeclarationLayer
  /// The MIME type whose database entry localizes the description.
  package let mimeCommentSource: String?

  init(
    declaration: TypeDeclaration, layer: DeclarationLayer, parentKeys: [String],
    ancestorKeys: Set<String>
  ) {
    self.identifier = declaration.identifier
    self.key = TypeIdentifier.key(declaration.identifier)
    self.parentKeys = parentKeys
    self.ancestorKeys = ancestorKeys
    self.tags = declaration.tags
    self.description = declaration.description
    self.referenceURL = declaration.referenceURL
    self.version = declaration.version
    self.layer = layer
    self.mimeCommentSource = declaration.mimeCommentSource
  }
}
