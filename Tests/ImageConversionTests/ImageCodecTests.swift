import FerryTestSupport
import FoundationEssentials
import ImageConversion
import Testing

/// Every format decoded and encoded through Debian's codecs: a round trip keeps the size and,
/// within each format's loss, the pixels; hostile images end in one clear error before their
/// pixels are allocated.
@Suite struct ImageCodecTests {
  /// The largest difference of a color channel between two images of the same size, over the
  /// opaque pixels of `reference`.
  private static func largestDifference(_ reference: RGBAImage, _ other: RGBAImage) -> Int {
    var largest = 0
    let a = reference.pixels
    let b = other.pixels
    for pixel in 0..<(reference.width * reference.height) where a[pixel * 4 + 3] == 255 {
      for channel in 0..<3 {
        largest = max(largest, abs(Int(a[pixel * 4 + channel]) - Int(b[pixel * 4 + channel])))
      }
    }
    return largest
  }

  // Lossless formats give the pixels back exactly; JPEG and WebP (quality 90) and GIF (255
  // colors) within a bound that garbage — a channel swapped, rows shifted — is far past.
  @Test(arguments: [
    (ImageFormat.png, 0), (.bmp, 0), (.tiff, 0), (.jpeg, 32), (.webp, 32), (.gif, 40),
  ])
  func aRoundTripKeepsTheSizeAndThePixels(format: ImageFormat, loss: Int) throws {
    let source = try RGBAImage.decode(
      try TestImages.gradientPNG(), as: .png, pixelLimit: 1_000_000)
    let encoded = try source.encoded(as: format)
    let decoded = try RGBAImage.decode(encoded, as: format, pixelLimit: 1_000_000)
    #expect(decoded.width == 64 && decoded.height == 48)
    #expect(Self.largestDifference(source, decoded) <= loss, "\(format)")
  }

  /// An opaque image goes to JPEG and BMP without the pass over white: the same colors.
  @Test(arguments: [(ImageFormat.jpeg, 32), (.bmp, 0)])
  func anOpaqueImageKeepsItsColors(format: ImageFormat, loss: Int) throws {
    let source = try RGBAImage.decode(
      try TestImages.gradientPNG(opaque: true), as: .png, pixelLimit: 10_000)
    let decoded = try RGBAImage.decode(
      try source.encoded(as: format), as: format, pixelLimit: 10_000)
    #expect(decoded.width == 64 && decoded.height == 48)
    #expect(Self.largestDifference(source, decoded) <= loss, "\(format)")
    #expect(decoded.pixels[0 + 2] > 100, "\(format): the first pixel's blue (128) stays")
  }

  @Test func transparencyIsKeptWhereTheFormatHasIt() throws {
    let source = try RGBAImage.decode(try TestImages.gradientPNG(), as: .png, pixelLimit: 10_000)
    for format in [ImageFormat.png, .tiff, .gif, .webp] {
      let decoded = try RGBAImage.decode(
        try source.encoded(as: format), as: format, pixelLimit: 10_000)
      #expect(decoded.pixels[3] < 128, "\(format): the top-left corner stays transparent")
    }
    for format in [ImageFormat.jpeg, .bmp] {
      let decoded = try RGBAImage.decode(
        try source.encoded(as: format), as: format, pixelLimit: 10_000)
      #expect(decoded.pixels[0] > 240 && decoded.pixels[3] == 255, "\(format): over white")
    }
  }

  @Test func aPNGClaimingTenBillionPixelsIsRefusedBeforeItsPixels() throws {
    let hostile = HostileImages.pngClaiming(width: 100_000, height: 100_000)
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(hostile, as: .png, pixelLimit: ImageConverter.defaultPixelLimit)
    }
    #expect(error?.reason == .tooLarge)
    #expect(error?.message.contains("100000x100000") == true, "\(error?.message ?? "")")
  }

  @Test func aTruncatedJPEGIsOneError() throws {
    let source = try RGBAImage.decode(try TestImages.gradientPNG(), as: .png, pixelLimit: 10_000)
    let jpeg = try source.encoded(as: .jpeg)
    for length in [2, 20, jpeg.count / 2] {
      // Half a JPEG decodes as libjpeg does (grey where the data ran out) or fails; never more.
      let result = Result {
        try RGBAImage.decode(jpeg.prefix(length), as: .jpeg, pixelLimit: 10_000)
      }
      if case .failure(let error) = result {
        #expect((error as? ImageConversionError)?.reason == .unreadable)
      } else {
        #expect(length == jpeg.count / 2, "a JPEG of \(length) bytes cannot decode")
      }
    }
  }

  @Test func aTIFFWhoseStripIsPastItsEndIsOneError() {
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(HostileImages.tiffWithBogusOffset(), as: .tiff, pixelLimit: 10_000)
    }
    #expect(error?.reason == .unreadable, "\(String(describing: error))")
  }

  /// Old-style JPEG (6), JBIG (34661), PixarLog (32909), SGILog (34676) and ThunderScan
  /// (32809) are refused before libtiff's codec runs: libtiff keeps its assert()s, and its
  /// rarer codecs are where damaged files reached one (issue 36).
  @Test(arguments: [6, 34661, 32909, 34676, 32809] as [UInt32])
  func aTIFFOfARareCompressionIsRefusedBeforeDecoding(_ scheme: UInt32) {
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(
        HostileImages.tiffWithBogusOffset(compression: scheme), as: .tiff, pixelLimit: 10_000)
    }
    #expect(error?.reason == .unreadable)
    #expect(
      "\(String(describing: error))".contains("scheme \(scheme)"), "\(String(describing: error))")
  }

  @Test func aGIFClaimingManyFramesCostsItsFirst() throws {
    let gif = HostileImages.gifWithFrames(100_000)
    let image = try RGBAImage.decode(gif, as: .gif, pixelLimit: 10)
    #expect(image.width == 1 && image.height == 1)
  }

  @Test func aGIFScreenPastTheLimitIsRefused() {
    var gif = HostileImages.gifWithFrames(0)
    gif[6] = 0xFF
    gif[7] = 0xFF
    gif[8] = 0xFF
    gif[9] = 0xFF  // a 65535 × 65535 screen
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(gif, as: .gif, pixelLimit: ImageConverter.defaultPixelLimit)
    }
    #expect(error?.reason == .tooLarge)
  }

  @Test(arguments: ImageFormat.allCases)
  func bytesOfAnotherKindAreOneError(format: ImageFormat) {
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(Data("not an image at all".utf8), as: format, pixelLimit: 10_000)
    }
    #expect(error?.reason == .unreadable)
    #expect(error?.message.isEmpty == false)
  }

  @Test func aBMPCutShortIsOneError() throws {
    let source = try RGBAImage.decode(try TestImages.gradientPNG(), as: .png, pixelLimit: 10_000)
    let bmp = try source.encoded(as: .bmp)
    let error = #expect(throws: ImageConversionError.self) {
      try RGBAImage.decode(bmp.prefix(bmp.count - 1), as: .bmp, pixelLimit: 10_000)
    }
    #expect(error?.message.contains("cut short") == true, "\(error?.message ?? "")")
  }
}

/// Thumbnails: an image made smaller keeps its proportions and its colors.
@Suite struct ImageFitTests {
  @Test func aLargeImageFitsItsBoxWithItsProportions() throws {
    let image = try RGBAImage.decode(
      try TestImages.gradientPNG(width: 400, height: 100), as: .png, pixelLimit: 1_000_000)
    let fitted = try image.fitting(within: 128)
    #expect(fitted.width == 128 && fitted.height == 32)
    // The right edge stays red-ish, the bottom green-ish: the gradient survives the average.
    let pixels = fitted.pixels
    let lastOfFirstRow = (127) * 4
    #expect(pixels[lastOfFirstRow] > 240 && pixels[lastOfFirstRow + 3] == 255)
    let firstOfLastRow = (31 * 128) * 4
    #expect(pixels[firstOfLastRow + 1] > 200)
  }

  @Test func aSmallImageIsCopiedAsItIs() throws {
    let image = try RGBAImage.decode(try TestImages.gradientPNG(), as: .png, pixelLimit: 10_000)
    let fitted = try image.fitting(within: 128)
    #expect(fitted.width == 64 && fitted.height == 48 && fitted.pixels == image.pixels)
  }
}
