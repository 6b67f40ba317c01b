import FoundationEssentials
import UniformTypeIdentifiers

/// `URL` transfers as `public.url`; a file URL first as `public.file-url`.
///
/// The bytes are the URL's absolute string in UTF-8.
///
/// ```swift
/// URL(fileURLWithPath: "/tmp/a.txt").exportedContentTypes()   // [public.file-url, public.url]
/// URL(string: "https://swift.org")!.exportedContentTypes()    // [public.url]
/// try await URL(importing: Data("https://swift.org\n".utf8), contentType: .url)
/// // https://swift.org
/// ```
///
/// Imports ignore surrounding white space and require an absolute URL; `public.file-url`
/// requires a `file:` URL.
extension URL: Transferable {
  /// `public.file-url` for file URLs, then `public.url`; both directions.
  ///
  /// ```swift
  /// URL.importedContentTypes()   // [public.file-url, public.url]
  /// ```
  public static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .fileURL) { url in
      Data(url.absoluteString.utf8)
    } importing: { data in
      let url = try URLDecoding.url(from: data)
      guard url.isFileURL else { throw URLDecodingError(reason: "\(url) is not a file URL") }
      return url
    }
    .exportingCondition(\.isFileURL)
    DataRepresentation(contentType: .url) { url in
      Data(url.absoluteString.utf8)
    } importing: { data in
      try URLDecoding.url(from: data)
    }
  }
}

/// Decoding of transferred URLs.
enum URLDecoding {
  /// An absolute URL from its UTF-8 string, white space around it ignored.
  static func url(from data: Data) throws -> URL {
    let text = try TextDecoding.utf8(data).trimmingWhitespace()
    guard let url = URL(string: text), url.scheme != nil else {
      throw URLDecodingError(reason: "\"\(text.prefix(80))\" is not an absolute URL")
    }
    return url
  }
}

/// Transferred bytes are not the URL they claim to be.
struct URLDecodingError: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}
