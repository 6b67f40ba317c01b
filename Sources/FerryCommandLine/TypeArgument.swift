import UniformTypeIdentifiers

/// A type named on the command line: a type identifier, a MIME type or a filename extension.
///
/// ```swift
/// try TypeArgument.resolve("public.png")   // public.png
/// try TypeArgument.resolve("image/png")    // public.png
/// try TypeArgument.resolve("png")          // public.png
/// try TypeArgument.resolve(".png")         // public.png
/// try TypeArgument.resolve("text")         // public.utf8-plain-text
/// try TypeArgument.identifier("public.png")  // "public.png", without loading the type tables
/// ```
///
/// An identifier must be well formed (`com.example.profile`; declared or not — a program's
/// own types are known to the broker or the X owner); a bare word must be an extension some
/// type declares, so a typo is an error, not a new dynamic type. A MIME type is
/// accepted even when nothing declares it: MIME types are open-ended.
public enum TypeArgument {
  /// Words people use for text, and the identifier each means.
  static let aliases: [String: String] = [
    "text": textIdentifier, "txt": textIdentifier, "string": textIdentifier,
    "utf8": textIdentifier, "UTF8_STRING": textIdentifier,
  ]

  /// `public.utf8-plain-text`, spelled out so that naming it costs no table look-up.
  public static let textIdentifier = "public.utf8-plain-text"

  /// The identifier `text` names, checked as ``resolve(_:)`` checks it.
  ///
  /// A well-formed identifier or an alias is answered without loading the type tables (the
  /// broker or the X path resolves it when it is used), which keeps `pbpaste --type
  /// com.example.profile` as quick to start as a plain `pbpaste`; MIME types and extensions
  /// are looked up.
  ///
  /// - Throws: ``CommandFailure`` (status 2) naming the word when no type answers to it.
  public static func identifier(_ text: String) throws -> String {
    if let alias = aliases[text] { return alias }
    if !text.hasPrefix("."), !text.contains("/"), text.contains("."),
      UTType._isWellFormedIdentifier(text)
    {
      return text
    }
    return try resolve(text).identifier
  }

  /// The type an identifier from ``identifier(_:)`` names: its declaration when there is one,
  /// else an imported type of that name (a program's own type).
  public static func type(forIdentifier identifier: String) -> UTType {
    UTType(identifier) ?? UTType(importedAs: identifier)
  }

  /// Whether `text` is `type/subtype` (each a non-empty token), with or without parameters.
  static func isMIMEType(_ text: String) -> Bool {
    let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
      .drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
    let parts = String(essence).split(separator: "/", omittingEmptySubsequences: false)
    return parts.count == 2
      && parts.allSatisfy { part in
        !part.isEmpty
          && part.unicodeScalars.allSatisfy {
            $0.isASCII && $0.value > 0x20 && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains($0)
          }
      }
  }

  /// Resolves `text` to a type.
  ///
  /// - Throws: ``CommandFailure`` (status 2) naming the word when no type answers to it.
  public static func resolve(_ text: String) throws -> UTType {
    if let alias = aliases[text] { return type(forIdentifier: alias) }
    if text.contains("/") {
      guard isMIMEType(text) else {
        throw CommandFailure(
          "'\(text)' is not a MIME type (type/subtype, each a token, as image/png or text/html;charset=utf-8)",
          status: .usage)
      }
      // A declared type first, whatever it conforms to (inode/directory is public.folder,
      // not data); an unknown MIME type is the dynamic type `UTType(mimeType:)` makes — the
      // one the broker and X owners' offers use for it.
      if let declared = UTType(mimeType: text, conformingTo: .item), !declared.isDynamic {
        return declared
      }
      guard let type = UTType(mimeType: text) else { throw unknown(text) }
      return type
    }
    if text.hasPrefix(".") {
      return try declaredExtension(String(text.dropFirst()), original: text)
    }
    if text.contains(".") {
      if let type = UTType(text) { return type }
      // A program's own type (com.example.profile) need not be declared here: the broker or
      // the X owner knows it. Only well-formed identifiers pass.
      guard UTType._isWellFormedIdentifier(text) else { throw unknown(text) }
      return UTType(importedAs: text)
    }
    if let target = UTType(tag: text, tagClass: .x11Target, conformingTo: nil), !target.isDynamic,
      text.uppercased() == text
    {
      return target
    }
    return try declaredExtension(text, original: text)
  }

  private static func declaredExtension(_ ext: String, original: String) throws -> UTType {
    guard let type = UTType(tag: ext, tagClass: .filenameExtension, conformingTo: nil),
      !type.isDynamic
    else {
      throw unknown(original)
    }
    return type
  }

  private static func unknown(_ text: String) -> CommandFailure {
    CommandFailure(
      "unknown type '\(text)' (give a type identifier, a MIME type or a file extension; `ferry type \(text)` explains)",
      status: .usage)
  }
}
