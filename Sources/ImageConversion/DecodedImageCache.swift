import FerrySystem
import FoundationEssentials

/// The pixels of the image copied last, kept for a while: a reader asking for another format
/// right after a copy (the common case: copy, then paste where JPEG or BMP is wanted) gets it
/// encoded from pixels decoded once, not after decoding the copy again — decoding a 4K PNG
/// was two thirds of a first conversion (docs/PERFORMANCE.md, "Images").
///
/// One image at a time, kept ``lifetime`` after it was decoded or last used, then given back:
/// a 3840 × 2160 image is 31.6 MiB of pixels, which the broker holds only in the minute after
/// a copy, not for as long as the copy is current.
final class DecodedImageCache: Sendable {
  /// How long pixels are kept after their last use.
  static let lifetime: Duration = .seconds(60)

  private struct Entry {
    var source: Data
    var image: RGBAImage
    var generation: Int
  }

  private let entry = TrackedMutex<Entry?>(nil)
  private let generations = TrackedMutex(0)

  /// The pixels of `source`, when they are the ones kept.
  func image(of source: Data) -> RGBAImage? {
    let found = entry.withLock { entry -> RGBAImage? in
      guard let kept = entry, kept.source.count == source.count, kept.source == source else {
        return nil
      }
      return kept.image
    }
    guard let image = found else { return nil }
    keep(source, image)  // used: kept another lifetime
    return image
  }

  /// Keeps `image`, the pixels of `source`, in place of any other, for ``lifetime``.
  func keep(_ source: Data, _ image: RGBAImage) {
    let generation = generations.withLock { value -> Int in
      value += 1
      return value
    }
    entry.withLock { $0 = Entry(source: source, image: image, generation: generation) }
    Task {
      try? await Task.sleep(for: Self.lifetime)
      self.entry.withLock { if $0?.generation == generation { $0 = nil } }
    }
  }

  /// Whether pixels are kept now.
  var isHolding: Bool { entry.withLock { $0 != nil } }
}
