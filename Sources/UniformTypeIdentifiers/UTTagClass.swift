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

  /// Which of the classes lookups index separately this is, decided once: comparing two tag
  /// classes of different kinds compares no strings.
  let kind: Kind

  enum Kind: UInt8 {
    case filenameExtension, mimeType, x11Target, other
  }

  /// Creates a tag class from its identifier.
  ///
  /// - Parameter rawValue: The tag class identifier, such as `public.mime-type`.
  public init(rawValue: String) {
    self.rawValue = rawValue
    kind =
      switch rawValue {
      case "public.filename-extension": .filenameExtension
      case "public.mime-type": .mimeType
      case "org.x.selection-target": .x11Target
      default: .other
      }
  }

  /// A tag class whose kind is known: the constants below are made without comparing strings
  /// or initializing a global.
  private init(rawValue: String, kind: Kind) {
    self.rawValue = rawValue
    self.kind = kind
  }

  /// Filename extensions, without the leading dot (`jpg`).
  public static var filenameExtension: UTTagClass {
    UTTagClass(rawValue: "public.filename-extension", kind: .filenameExtension)
  }

  /// MIME types (`image/jpeg`).
  public static var mimeType: UTTagClass {
    UTTagClass(rawValue: "public.mime-type", kind: .mimeType)
  }

  /// X11 selection targets: the atom names an X client offers and requests through
  /// `TARGETS` (`UTF8_STRING`, `text/uri-list`).
  ///
  /// Not part of Apple's framework. A target that is a MIME type also finds the type through
  /// its MIME type, so only the classic atoms need explicit tags.
  public static var x11Target: UTTagClass {
    UTTagClass(rawValue: "org.x.selection-target", kind: .x11Target)
  }
}

extension UTTagClass {
  /// Whether two tag classes have the same identifier.
  public static func == (lhs: UTTagClass, rhs: UTTagClass) -> Bool {
    // Equal identifiers have equal kinds, and a kind other than `other` has one identifier.
    lhs.kind == rhs.kind && (lhs.kind != .other || lhs.rawValue == rhs.rawValue)
  }

  /// Hashes the identifier.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// Decodes a tag class from its identifier, a single string.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the identifier as a single string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension UTTagClass: CustomStringConvertible, CustomDebugStringConvertible {
  /// The tag class identifier, as Apple's framework prints it.
  ///
  /// ```swift
  /// print(UTTagClass.mimeType)   // public.mime-type
  /// ```
  public var description: String { rawValue }

  /// The tag class identifier.
  public var debugDescription: String { rawValue }
}
