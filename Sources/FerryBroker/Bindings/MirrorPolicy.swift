import SelectionBackendCore

/// The broker's rules for one selection and its pasteboard, as a value: events in, actions
/// out. ``SelectionBinding`` feeds it what the backend and the pasteboard report and carries
/// out what it decides; the tests feed it directly.
///
/// - A Ferry client's write is served on the selection (``pasteboardChanged(top:)``), but
///   not the item the policy itself mirrored or restored.
/// - A new owner is captured (``ownerChanged(_:)``); a newer owner supersedes a capture in
///   progress, whose result is then dropped — a burst of owners (`PRIMARY` during a drag)
///   ends in one capture, of the last.
/// - A capture is recorded unless it holds exactly the bytes already mirrored: one copy is
///   one change (``captureEnded(_:_:changeCount:)``).
/// - When the owner goes, the mirrored copy is served — after a capture in progress ends, and
///   only if nobody owns the selection then: the policy never overtakes a new owner
///   (``ownerGone()``). Of a copy this binding captured, the binding keeps what is at hand —
///   the captured bytes and what a paste read in full from the owner — and forgets a copy
///   with nothing at hand (docs/CLIPBOARD-MANAGER.md, "What the broker captures").
struct MirrorPolicy: Sendable {
  /// An item on the pasteboard, by identity.
  typealias ItemID = ObjectIdentifier

  /// The copy mirrored from an owner: whose it is, what was captured, and its item.
  struct Mirror: Sendable {
    /// The owner it was captured from; ``OwnerToken/none`` once the broker serves it.
    var owner: OwnerToken
    /// The capture.
    var capture: OfferCapture
    /// The item written for it.
    var item: ItemID
    /// The pasteboard's change count after it was written.
    var changeCount: Int
    /// Whether the item was written for the capture (``recorded(item:changeCount:)``), rather
    /// than being an item the pasteboard already held (a bridge's echo, a save): its lazy
    /// representations read from the owner, and what they read decides what is kept.
    var isCaptureItem = false
  }

  /// What the policy decides.
  enum Action: Sendable, Equatable {
    /// Take the selection and serve the pasteboard's top item (a Ferry client's write).
    case serve(ItemID)
    /// Give the selection up: the pasteboard was cleared.
    case disown
    /// Read the new owner's offer; report with ``captureEnded(_:_:changeCount:)``.
    case startCapture(id: Int, owner: OwnerToken)
    /// Stop a capture that a newer owner superseded.
    case cancelCapture(id: Int)
    /// Write the capture to the pasteboard; report with ``recorded(item:changeCount:)``.
    case record(id: Int)
    /// Serve the mirrored copy if nobody owns the selection; report with ``tookOver(item:)``
    /// when the pasteboard still holds that copy (the change count), or give the selection up.
    /// A capture item with nothing at hand is forgotten instead: report with ``forgot()``.
    case takeOver(ifChangeCountIs: Int)
    /// Serve the mirrored copy in place of the desktop's keeper `keeper`, which restored part
    /// of it after its owner went (GNOME's Mutter); report as for ``takeOver(ifChangeCountIs:)``.
    case replaceKeeper(OwnerToken, ifChangeCountIs: Int)
  }

  /// The copy mirrored, if any.
  private(set) var mirror: Mirror?
  /// The capture in progress: its id and its owner.
  private(set) var capturing: (id: Int, owner: OwnerToken)?
  /// The capture ended, waiting for the pasteboard write.
  private(set) var pendingRecord: (id: Int, owner: OwnerToken, capture: OfferCapture)?
  /// The item put back from the history, on the selection since it was written.
  private(set) var restored: ItemID?
  /// Whether the owner went away while a capture was in progress.
  private(set) var ownerWentAway = false
  private var lastCaptureID = 0

  /// The pasteboard changed; `top` is its first item, `nil` when it was cleared.
  mutating func pasteboardChanged(top: ItemID?) -> [Action] {
    if let top, top == mirror?.item || top == restored { return [] }
    // The mirrored or restored item is off the pasteboard now, and an identity is an address:
    // once that item is freed, a later client's item can have it, and must still be served.
    mirror = nil
    restored = nil
    guard let top else { return [.disown] }
    return [.serve(top)]
  }

  /// Another client took the selection (this process's own takes never reach the policy).
  mutating func ownerChanged(_ owner: OwnerToken) -> [Action] {
    if mirror?.owner == owner || capturing?.owner == owner { return [] }  // the same ownership, told twice
    var actions: [Action] = []
    if let superseded = capturing { actions.append(.cancelCapture(id: superseded.id)) }
    lastCaptureID += 1
    capturing = (lastCaptureID, owner)
    ownerWentAway = false
    actions.append(.startCapture(id: lastCaptureID, owner: owner))
    return actions
  }

  /// The capture `id` ended with `capture` (`nil` when the offer could not be read);
  /// `changeCount` is the pasteboard's now.
  ///
  /// - Parameter heldAs: The pasteboard's top item when it already holds exactly what was
  ///   captured — the copy came back through a bridge (the compositor's XWayland bridge, or
  ///   another display server's binding): it becomes the mirror, and is not a change.
  /// - Parameter partOfHeld: The capture is the desktop's keeper holding part of `top`, the
  ///   copy this policy mirrored, after its owner went (``OwnerOffer/isKeptByDesktop``): the
  ///   mirror stays whole and is served in the keeper's place — not a change either.
  mutating func captureEnded(
    _ id: Int, _ capture: OfferCapture?, changeCount: Int, heldAs top: ItemID? = nil,
    partOfHeld: Bool = false
  )
    -> [Action]
  {
    guard let current = capturing, current.id == id else { return [] }  // superseded
    capturing = nil
    guard let capture else { return takeOverIfTheOwnerWent() }
    if let held = mirror, held.changeCount == changeCount,
      held.capture.holdsTheSameData(as: capture)
    {
      mirror?.owner = current.owner  // the new owner offers what is already held
      return takeOverIfTheOwnerWent()
    }
    if let top, partOfHeld, let held = mirror, held.item == top, held.changeCount == changeCount {
      mirror?.owner = current.owner
      ownerWentAway = false  // the keeper's restore is what took the owner's place
      // The offer's own ownership (X11: the time the restore took the selection, which the
      // replace must carry), else the event's.
      let keeper = capture.offer.owner.flatMap { $0.isSameOwner(as: current.owner) ? $0 : nil }
      return [.replaceKeeper(keeper ?? current.owner, ifChangeCountIs: changeCount)]
    }
    if let top {
      mirror = Mirror(owner: current.owner, capture: capture, item: top, changeCount: changeCount)
      return takeOverIfTheOwnerWent()
    }
    pendingRecord = (id, current.owner, capture)
    return [.record(id: id)]
  }

  /// The capture asked for by ``Action/record(id:)`` was written as `item`.
  mutating func recorded(item: ItemID, changeCount: Int) -> [Action] {
    guard let pending = pendingRecord else { return [] }
    pendingRecord = nil
    mirror = Mirror(
      owner: pending.owner, capture: pending.capture, item: item, changeCount: changeCount,
      isCaptureItem: true)
    return takeOverIfTheOwnerWent()
  }

  /// The owner of the selection went away, and nobody owns it now.
  mutating func ownerGone() -> [Action] {
    guard capturing == nil, pendingRecord == nil else {
      ownerWentAway = true  // decided once the capture ends
      return []
    }
    return takeOver()
  }

  /// The mirrored copy, item `item`, is on the selection and still the pasteboard's.
  mutating func tookOver(item: ItemID) {
    mirror?.item = item
    mirror?.owner = .none
    mirror?.isCaptureItem = false  // now held whole by the broker
  }

  /// The mirrored copy went with its owner, nothing of it at hand: the pasteboard was
  /// cleared.
  mutating func forgot() {
    mirror = nil
  }

  /// The history's newest copy, item `item`, was put on the selection.
  mutating func restored(item: ItemID) {
    restored = item
  }

  /// An exiting application's clipboard, owned by `owner` when the save began, was copied
  /// and taken. Whether it replaces the mirrored copy in place (`true`: the same owner's copy,
  /// the pasteboard unchanged since) or is written as a change.
  func saveReplacesMirror(owner: OwnerToken?, changeCount: Int) -> Bool {
    guard let mirror, let owner else { return false }
    return mirror.owner.isSameOwner(as: owner) && mirror.changeCount == changeCount
  }

  /// The saved copy is on the selection and the pasteboard, as `item` at `changeCount`.
  mutating func saved(_ capture: OfferCapture, item: ItemID, changeCount: Int) {
    mirror = Mirror(owner: .none, capture: capture, item: item, changeCount: changeCount)
  }

  private mutating func takeOverIfTheOwnerWent() -> [Action] {
    guard ownerWentAway else { return [] }
    ownerWentAway = false
    return takeOver()
  }

  /// A capture item is always handed to the binding, which keeps what is at hand of it or
  /// forgets it; another item only when the capture holds something to serve.
  private func takeOver() -> [Action] {
    guard let mirror, mirror.isCaptureItem || !mirror.capture.captured.isEmpty else { return [] }
    return [.takeOver(ifChangeCountIs: mirror.changeCount)]
  }
}
