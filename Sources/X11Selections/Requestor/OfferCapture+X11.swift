import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

/// What a capture of an X owner's offer got: each target's data, in the offer's order, or why
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
/// records the targets and converts nothing. An entry's data is text decoded to UTF-8 unless
/// the type is Latin-1; its failure is the X11 failure on the seam
/// (`BackendError.init(_:role:)`).
extension OfferCapture {
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
    let owner = offer.ownership
    return item(
      readingTheRestBy: { target, spool in
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
        } catch X11Error.timedOut(let step) {
          throw BackendError.timedOut(step)  // the provider's timeout (`PasteboardError`)
        }
      }, stepTimeout: stepTimeout)
  }
}

extension X11Display {
  /// What the owner of `selection` offers.
  ///
  /// - Throws: `X11Error.noOwner(_:)`, `X11Error.timedOut(_:)`, or
  ///   `X11Error.malformedReply(_:)` when `TARGETS` is not a list of atoms.
  public func offer(of selection: Selection, stepTimeout: Duration = defaultStepTimeout)
    async throws -> OwnerOffer
  {
    let listed = try await listedTargets(of: selection, stepTimeout: stepTimeout)
    return OwnerOffer(
      selection: selection, advertised: listed.names, owner: listed.owner,
      isKeptByDesktop: listed.isKeptByDesktop)
  }

  /// Reads one target and returns its data for its type: compound text and (unless the type
  /// is Latin-1 itself) `STRING` are decoded to UTF-8.
  ///
  /// - Throws: As ``read(_:target:into:stepTimeout:byteLimit:)``.
  public func read(
    _ target: OwnerOffer.Target, of selection: Selection,
    stepTimeout: Duration = defaultStepTimeout,
    byteLimit: Int? = nil
  ) async throws -> Data {
    try await loop.read(target, of: selection, stepTimeout: stepTimeout, byteLimit: byteLimit)
  }

  /// Copies what `offer` holds within `budget` bytes in all: every target in one `MULTIPLE`
  /// request when the owner converts it (``SelectionBackendCore/OwnerOffer/convertsMultiple``)
  /// and there are several, else target by target.
  ///
  /// A target that does not fit in what is left of the budget gets no data (its transfer is
  /// drained, never abandoned); later, smaller targets may still fit. A timeout ends the
  /// capture: an owner that hangs on one target hangs on the rest. So does cancelling the
  /// calling task: the transfer in progress is finished, no other target is asked for (the
  /// members of a `MULTIPLE` request already made are all read or drained). An owner that
  /// refuses `MULTIPLE`, does not answer it within a step or answers it with a list that is
  /// not the one asked for is then asked target by target. Each failure is the X11 one on the
  /// seam, for the offer's role (`BackendError.init(_:role:)`).
  ///
  /// - Parameters:
  ///   - offer: The owner's offer.
  ///   - targets: Which targets; by default the offer's `essentialTargets`.
  ///   - budget: The most bytes kept; zero records the targets and converts nothing.
  ///   - stepTimeout: How long each step of each transfer may take.
  public func capture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target]? = nil, budget: Int,
    stepTimeout: Duration = defaultStepTimeout
  ) async -> OfferCapture {
    await loop.capture(
      offer, targets: targets ?? offer.essentialTargets, budget: budget, stepTimeout: stepTimeout)
  }
}
