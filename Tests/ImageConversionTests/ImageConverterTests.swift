import FoundationEssentials
import ImageConversion
import Pasteboard
import Testing
import UniformTypeIdentifiers

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
