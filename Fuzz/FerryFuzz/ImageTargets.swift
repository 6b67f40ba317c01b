import FoundationEssentials
import ImageConversion

/// The most pixels an image may have in the image targets: small (4 MiB of RGBA), so that an
/// image claiming more is refused before its pixels are allocated, as the broker's limit
/// refuses one past 40 million, and no input decodes to more than 4 MiB of pixels.
private let imagePixelLimit = 1 << 20

/// The longest side each format can write: JPEG's, GIF's and WebP's (BMP and TIFF write any
/// image within the limit).
private let largestSide: [ImageFormat: Int] = [.jpeg: 65_500, .gif: 65_535, .webp: 16_383]

/// One decoder of `ImageConversion` (`RGBAImage.decode`, over the C codecs: libpng,
/// libjpeg-turbo, the hand-written BMP reader, libtiff, giflib, libwebp) fed any bytes as
/// `format`. An error is an answer, and one line; a decoded image has pixels, no more than
/// the limit; it encodes as PNG, which decodes to the same size and the same pixels (PNG is
/// lossless), and it encodes as its own format (or refuses to, as too large for it), which
/// decodes to the same size.
private func imageTarget(_ name: String, _ format: ImageFormat) -> FuzzTarget {
  FuzzTarget(name: name) { bytes in
    let image: RGBAImage
    do throws(ImageConversionError) {
      image = try RGBAImage.decode(Data(bytes), as: format, pixelLimit: imagePixelLimit)
    } catch {
      require(error.reason != .unwritable, "\(format): a decoder failed as an encoder: \(error)")
      require(
        !error.message.isEmpty && !error.message.contains(where: \.isNewline),
        "\(format): the error is not one line: \(error.message.debugDescription)")
      return
    }
    let (width, height) = (image.width, image.height)
    require(width > 0 && height > 0, "\(format): an image of \(width)x\(height) decoded")
    require(
      width * height <= imagePixelLimit,
      "\(format): \(width)x\(height) decoded, past the limit of \(imagePixelLimit) pixels")
    let pixels = image.pixels
    require(pixels.count == width * height * 4, "\(format): \(pixels.count) bytes of pixels")
    let png: Data
    do throws(ImageConversionError) {
      png = try image.encoded(as: .png)
    } catch {
      require(
        false, "\(format): a decoded \(width)x\(height) image does not encode as PNG: \(error)")
      return
    }
    do throws(ImageConversionError) {
      let again = try RGBAImage.decode(png, as: .png, pixelLimit: imagePixelLimit)
      require(
        again.width == width && again.height == height,
        "\(format): \(width)x\(height) is \(again.width)x\(again.height) through PNG")
      require(again.pixels == pixels, "\(format): the pixels change through PNG")
    } catch {
      require(
        false, "\(format): the PNG of a decoded \(width)x\(height) image does not decode: \(error)")
    }
    guard format != .png else { return }
    let own: Data
    do throws(ImageConversionError) {
      own = try image.encoded(as: format)
    } catch {
      // JPEG, GIF and WebP have a largest side; an image past it is refused, not written.
      require(
        error.reason == .unwritable && max(width, height) > largestSide[format, default: .max],
        "\(format): a decoded \(width)x\(height) image does not encode as \(format): \(error)")
      return
    }
    do throws(ImageConversionError) {
      let again = try RGBAImage.decode(own, as: format, pixelLimit: imagePixelLimit)
      require(
        again.width == width && again.height == height,
        "\(format): \(width)x\(height) is \(again.width)x\(again.height) once encoded and decoded")
    } catch {
      require(
        false, "\(format): a decoded \(width)x\(height) image, encoded, does not decode: \(error)")
    }
  }
}

let imagePNGTarget = imageTarget("image-png", .png)
let imageJPEGTarget = imageTarget("image-jpeg", .jpeg)
let imageBMPTarget = imageTarget("image-bmp", .bmp)
let imageTIFFTarget = imageTarget("image-tiff", .tiff)
let imageGIFTarget = imageTarget("image-gif", .gif)
let imageWebPTarget = imageTarget("image-webp", .webp)
