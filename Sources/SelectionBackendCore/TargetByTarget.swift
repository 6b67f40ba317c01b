import FoundationEssentials
import Pasteboard

/// Reads one target of the current owner of a selection, at most `limit` bytes: what a
/// backend that reads target by target (Wayland's data-control; the embedded backend) gives
/// ``OfferCapture/targetByTarget(_:targets:budget:read:)`` and
/// ``OfferCapture/item(readingTheRestWith:streamingWith:stepTimeout:)``.
public typealias TargetReader =
  @Sendable (_ role: SelectionRole, _ target: String, _ limit: Int) async throws(BackendError) ->
  Data

/// Streams one target of the current owner of a selection to a descriptor as it arrives
/// (``SelectionBackend/read(_:target:into:stepTimeout:)``): how
/// ``OfferCapture/item(readingTheRestWith:streamingWith:stepTimeout:)`` writes a target read
/// on request to the item's spool.
public typealias TargetStreamer =
  @Sendable (_ role: SelectionRole, _ target: String, _ descriptor: Int32)
  async throws(BackendError) -> Void

/// Reads one target of the owner that made an offer, on request: to a file of `spool` as it
/// arrives when there is one, else into memory. What
/// ``OfferCapture/item(readingTheRestBy:stepTimeout:)`` reads the targets a capture holds no
/// data for with; a step that times out throws ``BackendError/timedOut(_:)``.
public typealias OfferTargetReader =
  @Sendable (_ target: OwnerOffer.Target, _ spool: ConversionSpool?) async throws ->
  PasteboardPayload

extension OfferCapture {
  /// Captures `targets` of `offer` one after the other within `budget` bytes: a target that
  /// fails gets the reason and no data; a timeout, a gone owner or a replaced one ends the
  /// capture (an owner that hangs on one target hangs on the rest, and a new owner is asked
  /// nothing meant for the old); so does cancelling the calling task.
  public static func targetByTarget(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target], budget: Int, read: TargetReader
  ) async -> OfferCapture {
    var entries = targets.map { Entry(target: $0) }
    var left = budget
    for index in entries.indices where left > 0 && !Task.isCancelled {
      do {
        let data = try await read(offer.role, entries[index].target.name, left)
        entries[index].data = data
        left -= data.count
      } catch {
        entries[index].failure = error
        if case .timedOut = error { break }
        if case .noOwner = error { break }
        if case .ownerChanged = error { break }
      }
    }
    return OfferCapture(offer: offer, entries: entries)
  }

  /// An item of the captured data that reads every other target on request. A read whose
  /// step times out fails with `PasteboardError.providerTimedOut`.
  ///
  /// A target read on request is streamed with `stream` to a file of the item's spool as it
  /// arrives (the bytes in memory when they are few), never held whole, and no file is left
  /// when the read fails; a concealed item, which has no spool, is read into memory with
  /// `read`. What was read stays at hand when the owner goes
  /// (`PasteboardItem.itemAtHand()`).
  public func item(
    readingTheRestWith read: @escaping TargetReader,
    streamingWith stream: @escaping TargetStreamer, stepTimeout: Duration
  ) -> PasteboardItem {
    let role = offer.role
    return item(
      readingTheRestBy: { target, spool in
        guard let spool else { return .data(try await read(role, target.name, .max)) }
        return try await spool.payload { descriptor in
          try await stream(role, target.name, descriptor)
        }
      }, stepTimeout: stepTimeout)
  }

  /// An item of the captured data that reads every other target with `read` on request,
  /// while it lives: what a backend whose reads are its own (X11's, which decode text) makes
  /// its lazy items with. A read that throws ``BackendError/timedOut(_:)`` fails with
  /// `PasteboardError.providerTimedOut`: the owner's silence is the provider's timeout, not
  /// its failure (the broker answers `timeout`, as pbpaste does without one).
  public func item(readingTheRestBy read: @escaping OfferTargetReader, stepTimeout: Duration)
    -> PasteboardItem
  {
    PasteboardItem(
      representations: entries.map { entry in
        if let data = entry.data { return .data(data, type: entry.target.type) }
        let target = entry.target
        return .lazy(
          target.type, timeLimit: .seconds(3600),
          spooling: { spool in
            do {
              return try await read(target, spool)
            } catch BackendError.timedOut {
              let (seconds, attoseconds) = stepTimeout.components
              throw PasteboardError.providerTimedOut(
                target.type, seconds: Double(seconds) + Double(attoseconds) / 1e18)
            }
          })
      },
      options: offer.isConcealed ? .concealed : [], ownerNames: offer.spellings)
  }
}
