import FerrySystem
import FoundationEssentials
import Pasteboard
import UniformTypeIdentifiers

/// Converts any image Ferry can decode (PNG, JPEG, BMP, TIFF, GIF, WebP) to every other of
/// them, on request: the broker registers it, so a copy of a PNG is also offered as JPEG,
/// BMP, TIFF, GIF and WebP, after its own types, and each is made when first asked for and
/// kept for the next reader (the item's cache; spooled to a file when large).
///
/// An image of more than ``pixelLimit`` pixels is refused before its pixels are allocated: a
/// PNG claiming 100,000 × 100,000 costs one failed conversion, never the broker's memory.
///
/// ```swift
/// ConverterRegistry.shared.register(ImageConverter())
/// ```
public struct ImageConverter: PasteboardConverter {
  /// The default limit: 40 million pixels (160 MiB of RGBA), more than an 8K image (33 MP).
  public static let defaultPixelLimit = 40_000_000

  /// The most pixels an image may have to be converted.
  public let pixelLimit: Int

  /// The pixels of the image decoded last, shared by the copies of this converter.
  let decoded = DecodedImageCache()

  /// A converter refusing images of more than `pixelLimit` pixels.
  public init(pixelLimit: Int = defaultPixelLimit) {
    self.pixelLimit = pixelLimit
  }

  /// Decodes `payload`, of image type `type`, in the background and keeps its pixels for the
  /// minute after (``DecodedImageCache``), so that the first reader asking for another format
  /// pays only the encoding. The broker calls it when an image becomes the current copy. An
  /// image Ferry does not decode, or past the pixel limit, is left as it is.
  public func prepare(_ payload: PasteboardPayload, of type: UTType) {
    guard let format = ImageFormat(type: type) else { return }
    let (cache, limit) = (decoded, pixelLimit)
    Task {
      _ = try? await DetachedThread.run(name: "ferry-image") {
        let data = try payload.data()
        _ = try cache.image(of: data) {
          try RGBAImage.decode(data, as: format, pixelLimit: limit)
        }
      }
    }
  }

  /// Every other format, PNG first (the format every reader takes), for an image type.
  public func outputs(from source: UTType) -> [UTType] {
    guard let format = ImageFormat(type: source) else { return [] }
    return ImageFormat.allCases.filter { $0 != format }.map(\.type)
  }

  /// Decodes and encodes in memory.
  ///
  /// - Throws: ``ImageConversionError``.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    try await produce(payload, from: source, to: target, spool: nil)
  }

  /// Decodes and encodes on a thread of its own (an image takes tens to hundreds of
  /// milliseconds, which the broker's pool threads must not wait for), writing an output past
  /// 1 MiB into a file of `spool`.
  ///
  /// - Throws: ``ImageConversionError``, or an I/O error of the spool.
  public func convert(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType, spool: ConversionSpool
  ) async throws -> PasteboardPayload {
    try await produce(payload, from: source, to: target, spool: spool)
  }

  private func produce(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType, spool: ConversionSpool?
  ) async throws -> PasteboardPayload {
    guard let input = ImageFormat(type: source), let output = ImageFormat(type: target) else {
      throw ImageConversionError(.unreadable, "no image conversion from \(source) to \(target)")
    }
    let (limit, cache) = (pixelLimit, decoded)
    return try await DetachedThread.run(name: "ferry-image") {
      let source = try payload.data()
      let image = try cache.image(of: source) {
        try RGBAImage.decode(source, as: input, pixelLimit: limit)
      }
      let data = try image.encoded(as: output)
      guard let spool, data.count > Self.inMemoryLimit else { return .data(data) }
      return try Self.spooled(data, in: spool)
    }
  }

  /// The largest output kept in memory.
  static let inMemoryLimit = 1 << 20

  private static func spooled(_ data: Data, in spool: ConversionSpool) throws -> PasteboardPayload {
    let (url, descriptor) = try spool.makeFile()
    let file = FileDescriptor(rawValue: descriptor)
    defer { try? file.close() }
    try data.withUnsafeBytes { try file.writeAll(from: $0, path: url.path) }
    return .file(url)
  }
}
