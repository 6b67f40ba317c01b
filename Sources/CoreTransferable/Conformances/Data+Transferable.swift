import FoundationEssentials
import UniformTypeIdentifiers

/// `Data` transfers as itself, `public.data`, which every byte-based type conforms to.
///
/// ```swift
/// Data.exportedContentTypes()   // [public.data]
/// try await Data(importing: pngBytes, contentType: .png)   // the bytes, unchanged
/// ```
extension Data: Transferable {
  /// The bytes as `public.data`; both directions.
  ///
  /// ```swift
  /// try await Data([1, 2, 3]).exported(as: .data)   // [1, 2, 3]
  /// ```
  public static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .data) { data in
      data
    } importing: { data in
      data
    }
  }
}
