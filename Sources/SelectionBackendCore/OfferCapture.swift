import FoundationEssentials
import Pasteboard

/// What a capture of an owner's offer got: each target's data, in the offer's order, or why
/// it has none.
///
/// A capture has a byte budget, and it is a promise to the owner as much as to the reader: a
/// transfer that started is finished, or never started. A budget of zero records the
/// targets and reads nothing.
public struct OfferCapture: Sendable {
  /// One target of the capture.
  public struct Entry: Sendable {
    /// The target.
    public var target: OwnerOffer.Target
    /// Its data, or `nil`.
    public var data: Data?
    /// Why there is no data: over the budget, refused, timed out; `nil` when not asked for.
    public var failure: BackendError?

    /// Creates an entry.
    public init(target: OwnerOffer.Target, data: Data? = nil, failure: BackendError? = nil) {
      self.target = target
      self.data = data
      self.failure = failure
    }
  }

  /// The offer captured.
  public var offer: OwnerOffer
  /// The targets, in the offer's order.
  public var entries: [Entry]

  /// Creates a capture.
  public init(offer: OwnerOffer, entries: [Entry]) {
    self.offer = offer
    self.entries = entries
  }

  /// Whether every target's data is in hand.
  public var isComplete: Bool { entries.allSatisfy { $0.data != nil } }

  /// The entries with data.
  public var captured: [Entry] { entries.filter { $0.data != nil } }

  /// The bytes held.
  public var byteCount: Int { entries.reduce(0) { $0 + ($1.data?.count ?? 0) } }

  /// An item of the captured data only: what survives the owner.
  public var item: PasteboardItem {
    PasteboardItem(
      representations: captured.map { .data($0.data!, type: $0.target.type) },
      options: offer.isConcealed ? .concealed : [], ownerNames: offer.spellings)
  }

  /// Whether `other` holds the same targets with the same bytes: the same copy.
  public func holdsTheSameData(as other: OfferCapture) -> Bool {
    isComplete && other.isComplete && entries.map(\.target) == other.entries.map(\.target)
      && zip(entries, other.entries).allSatisfy { $0.data == $1.data }
  }
}
