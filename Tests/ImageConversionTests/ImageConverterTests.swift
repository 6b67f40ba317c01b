import FerryTestSupport
import FoundationEssentials
import Glibc
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import ImageConversion

/// The converter on a pasteboard: a PNG copy is offered as every other format after its own
/// type, each produced on request, and an image past the pixel limit fails its one conversion.
@Suite struct ImageConverterTests {
  /// A pasteboard holding one item of `data` as `type`, converted by a registry of its own
  /// (the shared one is every test's).
  private static func pasteboard(
    holding data: Data, as type: UTType, limit: Int = ImageConverter.defaultPixelLimit
  ) -> Pasteboard {
    let registry = ConverterRegistry()
    registry.register(ImageConverter(pixelLimit: limit))
    let board = Pasteboard(
      name: Pasteboard.Name(rawValue: "images-\(UUID().uuidString)"), converters: registry)
    board.write([
      PasteboardItem(representations: [.data(data, type: type)], converters: registry)
    ])
    return board
  }

  @Test func aPNGIsOfferedInEveryFormatAfterItsOwnType() throws {
    let board = Self.pasteboard(holding: try TestImages.gradientPNG(), as: .png)
    #expect(board.types == [.png, .jpeg, .bmp, .tiff, .gif, .webP])
  }

  @Test(arguments: [ImageFormat.jpeg, .bmp, .tiff, .gif, .webp])
  func eachFormatIsProducedOnRequest(format: ImageFormat) async throws {
    let board = Self.pasteboard(holding: try TestImages.gradientPNG(), as: .png)
    let data = try await board.data(for: format.type)
    let image = try RGBAImage.decode(data, as: format, pixelLimit: 10_000)
    #expect(image.width == 64 && image.height == 48)
  }

  @Test func aJPEGCopyIsReadAsPNG() async throws {
    let source = try RGBAImage.decode(try TestImages.gradientPNG(), as: .png, pixelLimit: 10_000)
    let board = Self.pasteboard(holding: try source.encoded(as: .jpeg), as: .jpeg)
    let png = try await board.data(for: .png)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test func anImagePastTheLimitFailsItsConversionOnly() async throws {
    let png = try TestImages.gradientPNG()
    let board = Self.pasteboard(holding: png, as: .png, limit: 100)
    await #expect(throws: (any Error).self) { try await board.data(for: .jpeg) }
    #expect(try await board.data(for: .png) == png, "the stored PNG is served as it was")
  }
}

/// The pixels of the image copied last, decoded once: ahead of the first reader when the broker
/// prepares them, or by the first conversion for the next.
@Suite struct DecodedImageCacheTests {
  @Test func preparedPixelsAreKeptAndServeTheConversion() async throws {
    let converter = ImageConverter()
    let png = try TestImages.gradientPNG()
    converter.prepare(.data(png), of: .png)
    #expect(await Deadline.wait(for: .seconds(20)) { converter.decoded.isHolding })
    let kept = try #require(converter.decoded.image(of: png))
    let jpeg = try await converter.convert(.data(png), from: .png, to: .jpeg).data()
    #expect(try RGBAImage.decode(jpeg, as: .jpeg, pixelLimit: 10_000).width == 64)
    #expect(converter.decoded.image(of: png) === kept, "the same pixels, not decoded again")
  }

  @Test func anotherImageTakesThePlaceOfTheFirst() async throws {
    let converter = ImageConverter()
    let first = try TestImages.gradientPNG()
    let second = try TestImages.gradientPNG(width: 32, height: 32)
    _ = try await converter.convert(.data(first), from: .png, to: .bmp)
    #expect(converter.decoded.image(of: first) != nil)
    _ = try await converter.convert(.data(second), from: .png, to: .bmp)
    #expect(converter.decoded.image(of: first) == nil && converter.decoded.image(of: second) != nil)
  }

  @Test func anImageFerryCannotDecodeIsNotKept() async throws {
    let converter = ImageConverter(pixelLimit: 100)
    converter.prepare(.data(try TestImages.gradientPNG()), of: .png)
    // Past the limit: nothing to keep, whenever the background decode ends.
    await #expect(throws: (any Error).self) {
      try await converter.convert(.data(try TestImages.gradientPNG()), from: .png, to: .jpeg)
    }
    #expect(!converter.decoded.isHolding)
  }

  /// A reader arriving while another thread decodes the same image waits for those pixels:
  /// one decode, one copy of the pixels (two at once held 81.5 MiB for a 4K PNG).
  @Test func threadsAskingForTheSameImageAtOnceDecodeItOnce() async throws {
    let cache = DecodedImageCache()
    let png = try TestImages.gradientPNG()
    let decodes = DecodeCount()
    let images = try await withThrowingTaskGroup(of: RGBAImage.self) { group in
      for _ in 0..<4 {
        group.addTask {
          try await DetachedThread.run {
            try cache.image(of: png) {
              decodes.count.withLock { $0 += 1 }
              usleep(300_000)  // a slow decode, so that the others arrive during it
              return try RGBAImage.decode(png, as: .png, pixelLimit: 10_000)
            }
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(decodes.count.withLock { $0 } == 1)
    #expect(images.count == 4 && images.allSatisfy { $0 === images[0] })
  }

  @Test func aFailedDecodeFailsEveryWaiterAndKeepsNothing() async throws {
    let cache = DecodedImageCache()
    let png = try TestImages.gradientPNG()
    await #expect(throws: ImageConversionError.self) {
      try cache.image(of: png) { try RGBAImage.decode(png, as: .png, pixelLimit: 100) }
    }
    #expect(!cache.isHolding)
    // The next asker decodes afresh.
    let image = try cache.image(of: png) { try RGBAImage.decode(png, as: .png, pixelLimit: 10_000) }
    #expect(image.width == 64)
  }
}

/// How many times a test's decode ran.
private final class DecodeCount: Sendable {
  let count = TrackedMutex(0)
}
