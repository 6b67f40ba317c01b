import FoundationEssentials
import Pasteboard
import UniformTypeIdentifiers

/// What a capture of an owner's offer got: each target's data, in the offer's order, or why
/// it has none.
///
/// ```swift
/// let offer = try await display.offer(of: .clipboard)
/// let capture = await display.capture(offer, budget: 64 << 20)
/// let item = capture.item(readingTheRestFrom: display)   // what did not fit stays lazy
/// ```
///
/// A budget is a promise to the owner as much as to the reader: a transfer that started is
/// finished (an INCR transfer past the budget is drained to its end, its bytes dropped) or
/// never started (a reply whose size is known to be too large is not read). A budget of zero
/// records the targets and converts nothing.
public struct SelectionCapture: Sendable {
  /// One target of the capture.
  public struct Entry: Sendable {
    /// The target and its type.
    public var target: SelectionOffer.Target
    /// Its data (text decoded to UTF-8 unless the type is Latin-1), or `nil`.
    public var data: Data?
    /// Why there is no data: over the budget, refused, timed out; `nil` when not asked for.
    public var failure: X11Error?

    /// Creates an entry.
    public init(target: SelectionOffer.Target, data: Data? = nil, failure: X11Error? = nil) {
      self.target = target
      self.data = data
      self.failure = failure
    }
  }

  /// The offer captured.
  public var offer: SelectionOffer
  /// The targets, in the offer's order.
  public var entries: [Entry]

  /// Creates a capture.
  public init(offer: SelectionOffer, entries: [Entry]) {
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
      options: offer.isConcealed ? .concealed : [])
  }

  /// An item of the captured data that reads every other target from the owner on request,
  /// while it lives. A read whose step times out fails with
  /// `PasteboardError.providerTimedOut`.
  ///
  /// A target read on request goes to a file of the item's spool as it arrives (the bytes in
  /// memory when they are few), never held whole; a concealed item's, which has no spool, is
  /// read into memory. What was read stays at hand when the owner goes
  /// (`PasteboardItem.itemAtHand()`).
  public func item(
    readingTheRestFrom display: X11Display, stepTimeout: Duration = X11Display.defaultStepTimeout
  ) -> PasteboardItem {
    let selection = offer.selection
    return PasteboardItem(
      representations: entries.map { entry in
        if let data = entry.data { return .data(data, type: entry.target.type) }
        let target = entry.target
        return .lazy(
          target.type, timeLimit: .seconds(3600),
          spooling: { [owner = offer.owner] spool in
            do {
              // Asked of the owner that made the offer only: another's data is another copy.
              guard let spool else {
                return .data(
                  try await display.loop.read(
                    target, of: selection, stepTimeout: stepTimeout, byteLimit: nil,
                    expectedOwner: owner))
              }
              return try await display.loop.read(
                target, of: selection, spoolingTo: spool, stepTimeout: stepTimeout,
                expectedOwner: owner)
            } catch X11Error.timedOut(_) {
              // The owner's silence is the provider's timeout, not its failure: the broker
              // answers `timeout`, as pbpaste does without one.
              let (seconds, attoseconds) = stepTimeout.components
              throw PasteboardError.providerTimedOut(
                target.type, seconds: Double(seconds) + Double(attoseconds) / 1e18)
            }
          })
      },
      options: offer.isConcealed ? .concealed : [])
  }

  /// Whether `other` holds the same targets with the same bytes: the same copy.
  public func holdsTheSameData(as other: SelectionCapture) -> Bool {
    isComplete && other.isComplete && entries.map(\.target) == other.entries.map(\.target)
      && zip(entries, other.entries).allSatisfy { $0.data == $1.data }
  }
}

extension X11Display {
  /// What the owner of `selection` offers.
  ///
  /// - Throws: `X11Error.noOwner(_:)`, `X11Error.timedOut(_:)`, or
  ///   `X11Error.malformedReply(_:)` when `TARGETS` is not a list of atoms.
  public func offer(of selection: Selection, stepTimeout: Duration = defaultStepTimeout)
    async throws -> SelectionOffer
  {
    let listed = try await listedTargets(of: selection, stepTimeout: stepTimeout)
    return SelectionOffer(selection: selection, advertised: listed.names, owner: listed.owner)
  }

  /// Reads one target and returns its data for its type: compound text and (unless the type
  /// is Latin-1 itself) `STRING` are decoded to UTF-8.
  ///
  /// - Throws: As ``read(_:target:into:stepTimeout:byteLimit:)``.
  public func read(
    _ target: SelectionOffer.Target, of selection: Selection,
    stepTimeout: Duration = defaultStepTimeout,
    byteLimit: Int? = nil
  ) async throws -> Data {
    try await loop.read(target, of: selection, stepTimeout: stepTimeout, byteLimit: byteLimit)
  }

  /// Copies what `offer` holds within `budget` bytes in all: every target in one `MULTIPLE`
  /// request when the owner converts it (``SelectionOffer/convertsMultiple``) and there are
  /// several, else target by target.
  ///
  /// A target that does not fit in what is left of the budget gets no data (its transfer is
  /// drained, never abandoned); later, smaller targets may still fit. A timeout ends the
  /// capture: an owner that hangs on one target hangs on the rest. So does cancelling the
  /// calling task: the transfer in progress is finished, no other target is asked for (the
  /// members of a `MULTIPLE` request already made are all read or drained). An owner that
  /// refuses `MULTIPLE`, does not answer it within a step or answers it with a list that is
  /// not the one asked for is then asked target by target.
  ///
  /// - Parameters:
  ///   - offer: The owner's offer.
  ///   - targets: Which targets; by default the offer's ``SelectionOffer/essentialTargets``.
  ///   - budget: The most bytes kept; zero records the targets and converts nothing.
  ///   - stepTimeout: How long each step of each transfer may take.
  public func capture(
    _ offer: SelectionOffer, targets: [SelectionOffer.Target]? = nil, budget: Int,
    stepTimeout: Duration = defaultStepTimeout
  ) async -> SelectionCapture {
    await loop.capture(
      offer, targets: targets ?? offer.essentialTargets, budget: budget, stepTimeout: stepTimeout)
  }
}
