/// A class of tags that name a type outside the type system: filename extensions, MIME types,
/// X11 selection targets.
///
/// ```swift
/// let jpeg = UTType(tag: "jpg", tagClass: .filenameExtension, conformingTo: nil)
/// let text = UTType(tag: "UTF8_STRING", tagClass: .x11Target, conformingTo: nil)
/// ```
///
/// The raw value is the tag class's own identifier, as in a declaration's
/// `UTTypeTagSpecification` dictionary.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable {
  /// The tag class identifier, such as `public.filename-extension`.
  public let rawValue: String

  /// Creates a tag class from its identifier.
  ///
  /// - Parameter rawValue: The tag class identifier, such as `public.mime-type`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Filename extensions, without the leading dot (`jpg`).
  public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")

  /// MIME types (`image/jpeg`).
  public static let mimeType = UTTagClass(rawValue: "public.mime-type")

  /// X11 selection targets: the atom names an X client offers and requests through
  /// `TARGETS` (`UTF8_STRING`, `text/uri-list`).
  ///
  /// Not part of Apple's framework. A target that is a MIME type also finds the type through
  /// its MIME type, so only the classic atoms need explicit tags.
  public static let x11Target = UTTagClass(rawValue: "org.x.selection-target")
}
