internal import CImageCodecs
import UniformTypeIdentifiers

/// An image format Ferry decodes and encodes: what GTK's clipboard offers (gdk-pixbuf's
/// savers) and what older toolkits, Java and Wine programs ask for.
public enum ImageFormat: CaseIterable, Sendable, Hashable {
  case png, jpeg, bmp, tiff, gif, webp

  /// The type of the format's bytes.
  public var type: UTType {
    switch self {
    case .png: .png
    case .jpeg: .jpeg
    case .bmp: .bmp
    case .tiff: .tiff
    case .gif: .gif
    case .webp: .webP
    }
  }

  /// The format of `type`, when it is one of these (or a subtype of one).
  public init?(type: UTType) {
    guard let format = Self.allCases.first(where: { type.conforms(to: $0.type) }) else {
      return nil
    }
    self = format
  }

  var codec: cferry_image_format {
    switch self {
    case .png: CFERRY_FORMAT_PNG
    case .jpeg: CFERRY_FORMAT_JPEG
    case .bmp: CFERRY_FORMAT_BMP
    case .tiff: CFERRY_FORMAT_TIFF
    case .gif: CFERRY_FORMAT_GIF
    case .webp: CFERRY_FORMAT_WEBP
    }
  }
}
