import FoundationEssentials
import ImageConversion

/// Images made for the tests: a gradient with a transparent corner, encoded by Ferry's own
/// PNG encoder (the interop tests check it against gdk-pixbuf). The hostile files are
/// FerryTestSupport's `HostileImages`.
enum TestImages {
  /// A `width` × `height` RGBA gradient whose top-left quarter is transparent (unless
  /// `opaque`), as PNG.
  static func gradientPNG(width: Int = 64, height: Int = 48, opaque: Bool = false) throws -> Data {
    var rgba = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        rgba[i] = UInt8(x * 255 / max(width - 1, 1))
        rgba[i + 1] = UInt8(y * 255 / max(height - 1, 1))
        rgba[i + 2] = 128
        rgba[i + 3] = !opaque && x < width / 2 && y < height / 2 ? 0 : 255
      }
    }
    return try RGBAImage(copying: rgba, width: width, height: height).encoded(as: .png)
  }

}
