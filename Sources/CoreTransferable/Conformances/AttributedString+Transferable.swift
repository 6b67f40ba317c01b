import FoundationEssentials
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  /// `AttributedString` transfers as its text: UTF-8 plain text, then plain text.
  ///
  /// ```swift
  /// AttributedString("Hello").exportedContentTypes()
  /// // [public.utf8-plain-text, public.plain-text]
  /// try await AttributedString(importing: Data("Hi".utf8), contentType: .plainText)   // "Hi"
  /// ```
  ///
  /// Attributes do not transfer: this toolchain's Foundation neither encodes
  /// `AttributedString` with `Codable` nor writes RTF, so the characters are what a receiver
  /// gets.
  extension AttributedString: Transferable {
    /// The characters, through `String`; both directions.
    ///
    /// ```swift
    /// try await AttributedString("Hi").exported(as: .utf8PlainText)   // Data("Hi".utf8)
    /// ```
    public static var transferRepresentation: some TransferRepresentation {
      ProxyRepresentation { (text: AttributedString) in
        String(text.characters)
      } importing: { (string: String) in
        AttributedString(string)
      }
    }
  }
#endif
