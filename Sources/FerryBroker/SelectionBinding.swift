import FerrySystem
import Foundation
import Logging
import Pasteboard
import X11Selections

/// Keeps a pasteboard and an X selection in step, both ways.
///
/// - What Ferry's clients write to the pasteboard, Ferry serves on the selection: the binding
///   takes the selection with a real server timestamp each time the pasteboard changes.
/// - What an X client copies, the binding mirrors into the pasteboard, so `pbpaste` and the
///   socket see it. `CLIPBOARD` is captured eagerly up to the byte budget, so the copy
///   outlives the owner; when the owner goes away (its client closed, its window destroyed)
///   and nobody owns the selection, the binding takes it and serves the copy. `PRIMARY`
///   changes with every selection drag, so its budget is zero: its targets are recorded at
///   once and its data read on request, from the owner.
/// - A capture never harms the owner's transfer (see ``SelectionCapture``), and a selection
///   is never taken from a live owner: only Ferry's own writes, or an owner that has gone,
///   make the binding take it.
/// - One copy is one change: the pasteboard's change count moves when an owner offers
///   something new, not when the binding takes over a copy it holds, saves it for an exiting
///   application, or hears of the same ownership twice (docs/PROTOCOL.md, "Change counts").
/// - From the moment a new owner is seen until its offer is captured, readers that settle
///   the pasteboard wait for the capture instead of being answered from the stale item.
final class SelectionBinding: Sendable {
  /// The copy the binding mirrors: whose it is, what was captured, and the item made of it.
  private struct Mirror {
    var owner: XWindow
    var time: XTimestamp
    var capture: SelectionCapture
    var item: ObjectIdentifier
    var changeCount: Int
  }

  let pasteboard: Pasteboard
  let selection: Selection
  let display: X11Display
  let byteBudget: Int
  let logger: Logger
  /// Where the owner's application is noted for the history.
  let sources: ItemSources?
  private let mirror = TrackedMutex<Mirror?>(nil)
  private let capturing = TrackedMutex<Task<Void, Never>?>(nil)
  /// The item put back from the history, already on the selection when it was written.
  private let restored = TrackedMutex(WeakItem())
  /// How far the pasteboard's changes have reached the selection.
  let published = PublicationGate()

  /// How long a write's acknowledgement waits for the copy to be on the selection.
  static let publicationTimeout: Duration = .seconds(2)

  /// How long each step of a capture may take by default: the owner's answer, each INCR chunk.
  static let defaultCaptureStepTimeout: Duration = .seconds(2)

  /// How long each step of a capture may take (`timeouts.capture`).
  let captureStepTimeout: Duration

  init(
    pasteboard: Pasteboard, selection: Selection, display: X11Display, byteBudget: Int, sources: ItemSources? = nil,
    captureStepTimeout: Duration = defaultCaptureStepTimeout, logger: Logger
  ) {
    self.captureStepTimeout = captureStepTimeout
    self.sources = sources
    self.pasteboard = pasteboard
    self.selection = selection
    self.display = display
    self.byteBudget = byteBudget
    self.logger = logger
  }

  /// Follows pasteboard changes and owner changes until cancelled.
  func run() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.followPasteboard() }
      group.addTask { await self.followOwners() }
    }
  }

  private func followPasteboard() async {
    for await _ in pasteboard.changes {
      let count = pasteboard.changeCount
      await serve(pasteboard.items.first)
      published.publish(count)
    }
  }

  /// Takes the selection for a Ferry client's item, or gives it up when the pasteboard was
  /// cleared; leaves an item mirrored from the selection's owner alone.
  private func serve(_ item: PasteboardItem?) async {
    guard let item else {
      await display.disown(selection)
      return
    }
    if mirror.withLock({ $0?.item == ObjectIdentifier(item) }) { return }
    if restored.withLock({ $0.item === item }) { return }
    do {
      try await display.own(selection, item: item)
      logger.debug("serving \(pasteboard.name.rawValue) on \(selection)")
    } catch {
      logger.warning("could not take \(selection): \(error)")
    }
  }

  private func followOwners() async {
    for await change in display.ownerChanges(of: [selection]) {
      if change.isOwnedByThisProcess { continue }
      switch change.kind {
      case .newOwner:
        startMirroring(owner: change.owner, time: change.time)
      case .windowDestroyed, .clientClosed:
        await takeOverIfOwnerless()
      }
    }
  }

  /// Puts `item` — a copy from the history, when the broker starts — on the selection and
  /// the pasteboard, only if nobody owns the selection: an application that owns it keeps
  /// it, and the pasteboard stays as it was.
  ///
  /// - Returns: Whether the item was restored.
  func restore(_ item: PasteboardItem) async -> Bool {
    do {
      try await display.own(selection, item: item, onlyIfUnowned: true)
    } catch {
      logger.info("not restoring the history's newest copy: \(selection) has an owner")
      return false
    }
    restored.withLock { $0.item = item }
    published.publish(pasteboard.write([item]))
    return true
  }

  /// Mirrors the new owner's offer into the pasteboard, replacing a capture in progress.
  private func startMirroring(owner: XWindow, time: XTimestamp) {
    if mirror.withLock({ $0?.owner == owner && $0?.time == time }) { return }  // the same ownership, told twice
    let pending = pasteboard.announceWrite()
    let task = Task {
      defer { pending.finish() }
      do {
        let offer = try await display.offer(of: selection, stepTimeout: captureStepTimeout)
        let capture = await display.capture(offer, budget: byteBudget, stepTimeout: captureStepTimeout)
        let application = sources == nil ? nil : await display.application(owning: owner)
        guard !Task.isCancelled else { return }
        record(capture, owner: owner, time: time, application: application)
      } catch {
        logger.debug("could not mirror \(selection): \(error)")
      }
    }
    capturing.withLock {
      $0?.cancel()
      $0 = task
    }
  }

  /// Puts a new owner's capture on the pasteboard: a change, unless it holds exactly the
  /// bytes the pasteboard already mirrors.
  private func record(_ capture: SelectionCapture, owner: XWindow, time: XTimestamp, application: String?) {
    let changeCount = pasteboard.changeCount
    let unchanged = mirror.withLock { current -> Bool in
      guard let held = current, held.changeCount == changeCount, held.capture.holdsTheSameData(as: capture) else {
        return false
      }
      current?.owner = owner
      current?.time = time
      return true
    }
    if unchanged {
      logger.debug("\(selection): the new owner offers what is already held")
      return
    }
    let item = capture.item(readingTheRestFrom: display)
    // Written under the mirror's lock, so that following the write sees the mirror and never
    // takes the selection from its owner.
    sources?.note(item, source: application)
    mirror.withLock { mirror in
      let count = pasteboard.write([item])
      mirror = Mirror(owner: owner, time: time, capture: capture, item: ObjectIdentifier(item), changeCount: count)
    }
    logger.debug("mirrored \(capture.entries.count) targets of \(selection) (\(capture.byteCount) bytes) from 0x\(String(owner.rawValue, radix: 16))")
  }

  /// The owner went away: serve the captured copy if nobody else has taken the selection.
  /// The copy is the one the pasteboard already holds, so its change count stays.
  private func takeOverIfOwnerless() async {
    await capturing.withLock { $0 }?.value
    guard let copy = mirror.withLock({ $0 }), !copy.capture.captured.isEmpty else { return }
    let item = copy.capture.item
    do {
      // Never from a new owner, even one that takes the selection as the broker looks.
      try await display.own(selection, item: item, onlyIfUnowned: true)
    } catch {
      logger.debug("not taking over \(selection): \(error)")
      return
    }
    let kept = mirror.withLock { mirror -> Bool in
      guard pasteboard.substitute([item], ifChangeCountIs: copy.changeCount) else { return false }
      mirror?.item = ObjectIdentifier(item)
      mirror?.owner = .none
      return true
    }
    if kept {
      logger.info("the owner of \(selection) went away; serving its copy")
    } else {
      await display.disown(selection)  // Something newer was written meanwhile: serve that.
    }
  }

  /// Copies the clipboard for an application about to exit (`SAVE_TARGETS`) and takes it.
  ///
  /// Saving the copy the pasteboard already mirrors is not a change; saving an owner the
  /// binding had not captured yet is.
  func saveForExitingOwner(targets: [String]?) async -> Bool {
    await capturing.withLock { $0 }?.value
    let owner = try? await display.owner(of: selection)
    guard let offer = try? await display.offer(of: selection, stepTimeout: captureStepTimeout) else { return false }
    let wanted = targets.map(offer.targets(named:)) ?? offer.essentialTargets
    let capture = await display.capture(offer, targets: wanted, budget: byteBudget, stepTimeout: captureStepTimeout)
    guard !capture.captured.isEmpty else { return false }
    let item = capture.item
    if let owner { sources?.note(item, source: await display.application(owning: owner)) }
    do {
      try await display.own(selection, item: item)
    } catch {
      return false
    }
    mirror.withLock { mirror in
      var count = pasteboard.changeCount
      let sameCopy = mirror.map { $0.owner == owner && $0.changeCount == count } ?? false
      if !(sameCopy && pasteboard.substitute([item], ifChangeCountIs: count)) {
        count = pasteboard.write([item])
      }
      mirror = Mirror(owner: .none, time: .current, capture: capture, item: ObjectIdentifier(item), changeCount: count)
    }
    logger.info("saved \(capture.captured.count) targets of \(selection) for an exiting application")
    return true
  }
}

/// A weak reference to an item, compared by identity: never mistaken for a later item that
/// happens to reuse the address.
private struct WeakItem {
  weak var item: PasteboardItem?
}
