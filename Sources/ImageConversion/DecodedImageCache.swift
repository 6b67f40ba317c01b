import Dispatch
import FerrySystem
import FoundationEssentials

/// The pixels of the image copied last, kept for a while: a reader asking for another format
/// right after a copy (the common case: copy, then paste where JPEG or BMP is wanted) gets it
/// encoded from pixels decoded once, not after decoding the copy again — decoding a 4K PNG
/// was two thirds of a first conversion (docs/PERFORMANCE.md, "Images").
///
/// One image at a time, kept ``lifetime`` after it was decoded or last used, then given back:
/// a 3840 × 2160 image is 31.6 MiB of pixels, which the broker holds only in the minute after
/// a copy, not for as long as the copy is current. An image is decoded once however many
/// threads ask for it at the same time (``image(of:decodingWith:)``): a reader arriving while
/// the broker's own decode of a new copy runs waits for it, rather than holding a second
/// copy of the pixels.
final class DecodedImageCache: Sendable {
  /// How long pixels are kept after their last use.
  static let lifetime: Duration = .seconds(60)

  private struct Entry {
    var source: Data
    var image: RGBAImage
    var generation: Int
  }

  /// A decode in progress, which other threads asking for the same source wait for.
  private final class Decoding: Sendable {
    let source: Data
    let done = DispatchGroup()
    let result = TrackedMutex<Result<RGBAImage, any Error>?>(nil)

    init(source: Data) {
      self.source = source
      done.enter()
    }
  }

  private let entry = TrackedMutex<Entry?>(nil)
  private let generations = TrackedMutex(0)
  private let decoding = TrackedMutex<Decoding?>(nil)

  /// The pixels of `source`: the kept ones, else those of a decode in progress (waited for,
  /// on this thread), else `decode`'s, kept.
  func image(of source: Data, decodingWith decode: () throws -> RGBAImage) throws -> RGBAImage {
    if let kept = image(of: source) { return kept }
    let (job, isMine) = decoding.withLock { current -> (Decoding, Bool) in
      if let current, current.source.count == source.count, current.source == source {
        return (current, false)
      }
      let job = Decoding(source: source)
      current = job
      return (job, true)
    }
    if !isMine {
      job.done.wait()
      return try job.result.withLock { $0! }.get()
    }
    let result = Result { try decode() }
    if case .success(let image) = result { keep(source, image) }
    job.result.withLock { $0 = result }
    decoding.withLock { if $0 === job { $0 = nil } }
    job.done.leave()
    return try result.get()
  }

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
      try? await Task.sleep(for: Self.lifetime, clock: .timerThread)
      self.entry.withLock { if $0?.generation == generation { $0 = nil } }
    }
  }

  /// Whether pixels are kept now.
  var isHolding: Bool { entry.withLock { $0 != nil } }
}
