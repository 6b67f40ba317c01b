internal import CImageCodecs
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Pixels as 8-bit RGBA, rows top to bottom: what every format is decoded to and encoded
/// from. Frees its pixels when it goes.
public final class RGBAImage: @unchecked Sendable {
  // Immutable after init; the pixels are only read.
  fileprivate var image: cferry_image

  /// The width in pixels.
  public var width: Int { Int(image.width) }
  /// The height in pixels.
  public var height: Int { Int(image.height) }

  /// The pixels, 4 bytes each (red, green, blue, alpha), row after row.
  public var pixels: [UInt8] {
    withExtendedLifetime(self) {
      Array(UnsafeRawBufferPointer(start: image.pixels, count: width * height * 4))
    }
  }

  fileprivate init(_ image: cferry_image) { self.image = image }

  /// An image of `pixels`, `width` × `height` RGBA bytes row after row, copied.
  public init(copying pixels: [UInt8], width: Int, height: Int) {
    precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
    let storage = malloc(pixels.count)!.assumingMemoryBound(to: UInt8.self)
    pixels.withUnsafeBufferPointer { storage.update(from: $0.baseAddress!, count: pixels.count) }
    image = cferry_image(pixels: storage, width: UInt32(width), height: UInt32(height))
  }

  deinit { cferry_image_free(&image) }

  /// Decodes `data` of `format`, refusing an image of more than `pixelLimit` pixels before
  /// allocating them.
  ///
  /// - Throws: ``ImageConversionError``.
  public static func decode(_ data: Data, as format: ImageFormat, pixelLimit: Int)
    throws(ImageConversionError) -> RGBAImage
  {
    var image = cferry_image()
    var message = [CChar](repeating: 0, count: Int(CFERRY_IMAGE_MESSAGE_SIZE))
    let status = data.withUnsafeBytes { bytes in
      cferry_image_decode(
        format.codec, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count,
        UInt64(max(pixelLimit, 0)), &image, &message)
    }
    guard status == CFERRY_IMAGE_OK else { throw ImageConversionError(status, message) }
    return RGBAImage(image)
  }

  /// The image encoded as `format` (over white for JPEG and BMP, which have no transparency).
  ///
  /// - Throws: ``ImageConversionError``.
  public func encoded(as format: ImageFormat) throws(ImageConversionError) -> Data {
    var buffer = cferry_buffer()
    var message = [CChar](repeating: 0, count: Int(CFERRY_IMAGE_MESSAGE_SIZE))
    let status = withUnsafePointer(to: &image) {
      cferry_image_encode(format.codec, $0, &buffer, &message)
    }
    guard status == CFERRY_IMAGE_OK, let bytes = buffer.bytes else {
      throw ImageConversionError(status, message)
    }
    return Data(bytesNoCopy: bytes, count: buffer.length, deallocator: .free)
  }
}

extension RGBAImage {
  /// The image made smaller to fit `maxSide` × `maxSide` pixels, its proportions kept (an
  /// image that fits comes back as a copy): each pixel the average of those it covers.
  ///
  /// - Throws: ``ImageConversionError`` when memory runs out.
  public func fitting(within maxSide: Int) throws(ImageConversionError) -> RGBAImage {
    var fitted = cferry_image()
    var message = [CChar](repeating: 0, count: Int(CFERRY_IMAGE_MESSAGE_SIZE))
    let status = withUnsafePointer(to: &image) {
      cferry_image_fit($0, UInt32(clamping: maxSide), &fitted, &message)
    }
    guard status == CFERRY_IMAGE_OK else { throw ImageConversionError(status, message) }
    return RGBAImage(fitted)
  }
}

extension ImageConversionError {
  init(_ status: cferry_image_status, _ message: [CChar]) {
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let reason: Reason =
      switch status {
      case CFERRY_IMAGE_TOO_LARGE: .tooLarge
      case CFERRY_IMAGE_NO_MEMORY: .noMemory
      case CFERRY_IMAGE_UNWRITABLE: .unwritable
      default: .unreadable
      }
    self.init(reason, text.isEmpty ? "the image could not be converted" : text)
  }
}
