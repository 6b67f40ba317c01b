import UniformTypeIdentifiers

/// A name given on the command line for a type, and how to look it up.
struct TypeQuery {
  var text: String
  var kind: Ferry.TypeCommand.QueryKind

  /// Reads `text` as `kind`, or guesses: `.ext` is an extension, `a/b` a MIME type, a
  /// dotted name an identifier, an upper-case atom name an X11 target, anything else an
  /// extension.
  init(_ text: String, kind: Ferry.TypeCommand.QueryKind?) {
    self.text = text
    if let kind {
      self.kind = kind
    } else if text.hasPrefix(".") {
      self.kind = .extension
    } else if text.contains("/") {
      self.kind = .mime
    } else if text.contains(".") {
      self.kind = .identifier
    } else if text.contains(where: \.isUppercase), !text.contains(where: \.isLowercase) {
      self.kind = .x11
    } else {
      self.kind = .extension
    }
  }

  /// The type the query names; `nil` only for an identifier nobody declares.
  ///
  /// A tag finds the preferred declared type of any kind; an undeclared tag gets the dynamic
  /// type Apple's initializers give it, conforming to `public.data`.
  func resolve() -> UTType? {
    let tagClass: UTTagClass
    var tag = text
    switch kind {
    case .identifier: return UTType(text)
    case .extension:
      tagClass = .filenameExtension
      if tag.hasPrefix(".") { tag.removeFirst() }
    case .mime: tagClass = .mimeType
    case .x11: tagClass = .x11Target
    }
    guard let any = UTType(tag: tag, tagClass: tagClass, conformingTo: nil) else { return nil }
    return any.isDynamic ? UTType(tag: tag, tagClass: tagClass, conformingTo: .data) : any
  }
}
