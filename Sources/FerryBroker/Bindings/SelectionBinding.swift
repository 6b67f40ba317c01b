import FerrySystem
import Logging
import Pasteboard
import SelectionBackendCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps a pasteboard and a display server's selection in step, both ways, by the rules of
/// ``MirrorPolicy``.
///
/// - What Ferry's clients write to the pasteboard, Ferry serves on the selection.
/// - What another client copies, the binding mirrors into the pasteboard, so `pbpaste` and
///   the socket see it. `CLIPBOARD` is captured eagerly up to the byte budget, so the copy
///   outlives the owner; when the owner goes away and nobody owns the selection, the binding
///   takes it and serves the copy. `PRIMARY` changes with every selection drag, so its budget
///   is zero: its targets are recorded at once and its data read on request, from the owner.
/// - A capture never harms the owner's transfer, and a selection is never taken from a live
///   owner: only Ferry's own writes, or an owner that has gone, make the binding take it.
/// - Past the budget, a copy is kept as far as its bytes are at hand when its owner goes:
///   what a paste read in full from the owner (into the spool) is kept, served and recorded
///   in the history like captured bytes; a copy with nothing at hand is forgotten — the
///   pasteboard is cleared, so every reader finds it gone, `pbpaste` as `xclip -o`. A
///   binding whose budget is zero (`PRIMARY`) keeps nothing of an owner that went.
/// - One copy is one change: the pasteboard's change count moves when an owner offers
///   something new, not when the binding takes over a copy it holds, saves it for an exiting
///   application, or hears of the same ownership twice (docs/PROTOCOL.md, "Change counts").
/// - From the moment a new owner is seen until its offer is captured, readers that settle
///   the pasteboard wait for the capture instead of being answered from the stale item.
///
/// The binding carries out the policy's actions on a ``SelectionBackend`` (X11's, or an
/// embedded one in tests) and reports their outcomes back to it.
final class SelectionBinding: Sendable {
  let pasteboard: Pasteboard
  let role: SelectionRole
  let backend: any SelectionBackend
  let byteBudget: Int
  let logger: Logger
  /// Where the owner's application is noted for the history.
  let sources: ItemSources?
  /// The history, which records a copy kept when its owner went with bytes it could not
  /// record when the copy was made (read past the budget).
  let history: BrokerHistory?
  /// The copies the pasteboard's other bindings recorded, when there are others (X11 and
  /// Wayland bridged): what comes back through the compositor's own bridge is not a change.
  let echoes: BridgeEchoes?
  /// The policy, under the lock that also covers the pasteboard writes it decides, so that
  /// following a write always sees the policy's record of it.
  private let policy = TrackedMutex(MirrorPolicy())
  /// The capture in progress, by the policy's id.
  private let capturing = TrackedMutex<(id: Int, task: Task<Void, Never>)?>(nil)
  /// The item last written for a capture, and its owner's application: the copy whose lazy
  /// representations read from the owner. Held weakly: a replaced copy goes at once.
  private let captureItem = TrackedMutex(CaptureItem())
  /// How far the pasteboard's changes have reached the selection.
  let published = PublicationGate()

  /// How long a write's acknowledgement waits for the copy to be on the selection.
  static let publicationTimeout: Duration = .seconds(2)

  /// How long each step of a capture may take by default: the owner's answer, each chunk.
  static let defaultCaptureStepTimeout: Duration = .seconds(2)

  /// How long each step of a capture may take (`timeouts.capture`).
  let captureStepTimeout: Duration

  /// How long a whole capture may take by default, the owner's offer included: an owner of
  /// many slow types (each within its step) must not hold a copy up for long.
  static let defaultCaptureTimeBudget: Duration = .seconds(5)

  /// How long a whole capture may take: ``defaultCaptureTimeBudget``, or two steps when the
  /// step timeout is longer. Past it the capture asks nothing more (and stops the transfer it
  /// waits for, where the display server lets a reader close its end: Wayland); what it has
  /// is recorded, and the rest is read on request while the owner lives. The capture's third
  /// budget, beside bytes (``byteBudget``) and types (`OwnerOffer.maximumTargets`).
  let captureTimeBudget: Duration

  /// The clock the time budget is measured on (a test's `ManualClock`).
  private let clock: any Clock<Duration>

  init(
    pasteboard: Pasteboard, role: SelectionRole, backend: any SelectionBackend, byteBudget: Int,
    sources: ItemSources? = nil, history: BrokerHistory? = nil, echoes: BridgeEchoes? = nil,
    captureStepTimeout: Duration = defaultCaptureStepTimeout, captureTimeBudget: Duration? = nil,
    clock: any Clock<Duration> = ContinuousClock(), logger: Logger
  ) {
    self.captureTimeBudget =
      captureTimeBudget ?? max(Self.defaultCaptureTimeBudget, captureStepTimeout * 2)
    self.clock = clock
    self.history = history
    self.echoes = echoes
    self.captureStepTimeout = captureStepTimeout
    self.sources = sources
    self.pasteboard = pasteboard
    self.role = role
    self.backend = backend
    self.byteBudget = byteBudget
    self.logger = logger
  }

  /// Follows pasteboard changes and owner changes until cancelled.
  ///
  /// - Parameter resuming: The display server was connected again (``DisplaySupervisor``):
  ///   first serve the pasteboard's copy on the selection again, if nobody owns it
  ///   (``resume()``), or mirror the selection's owner, if another program owns it — what
  ///   was copied while the display was away, or as the broker connected. Writes and owner
  ///   changes made meanwhile are followed all the same.
  func run(resuming: Bool = false) async {
    // Both subscribed before resuming: a write or a new owner meanwhile is not missed.
    let changes = pasteboard.changes
    let owners = backend.ownerChanges(of: [role])
    if resuming, await resume() == .selectionOwned {
      await mirrorCurrentOwner()
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.followPasteboard(changes) }
      group.addTask { await self.followOwners(owners) }
    }
  }

  private func followPasteboard(_ changes: AsyncStream<Int>) async {
    for await _ in changes {
      let count = pasteboard.changeCount
      let top = pasteboard.items.first
      let actions = policy.withLock { $0.pasteboardChanged(top: top.map(ObjectIdentifier.init)) }
      for action in actions {
        switch action {
        case .disown: await backend.disown(role)
        case .serve: if let top { await serve(top) }
        default: break
        }
      }
      published.publish(count)
    }
  }

  /// Takes the selection for a Ferry client's item.
  private func serve(_ item: PasteboardItem) async {
    do {
      try await backend.own(role, item: item)
      logger.debug("serving \(pasteboard.name.rawValue) on \(role)")
    } catch {
      logger.warning("could not take \(role): \(error)")
    }
  }

  private func followOwners(_ owners: AsyncStream<OwnerChange>) async {
    for await change in owners {
      logger.debug(
        "\(role): \(change.kind) \(change.owner)\(change.isOwnedByThisProcess ? " (Ferry)" : "")")
      if change.isOwnedByThisProcess { continue }
      switch change.kind {
      case .newOwner: perform(policy.withLock { $0.ownerChanged(change.owner) })
      case .ownerGone: perform(policy.withLock { $0.ownerGone() })
      }
    }
  }

  /// Carries out the policy's actions about owners: captures and takeovers.
  private func perform(_ actions: [MirrorPolicy.Action]) {
    for action in actions {
      switch action {
      case .startCapture(let id, let owner): startCapture(id, owner: owner)
      case .cancelCapture(let id):
        capturing.withLock { if $0?.id == id { $0?.task.cancel() } }
      case .record(let id): logger.warning("unexpected record of capture \(id) outside its end")
      case .takeOver(let count):
        Task(executorPreference: ProductionExecutor.shared) {
          await self.takeOver(ifChangeCountIs: count)
        }
      case .replaceKeeper(let keeper, let count):
        Task(executorPreference: ProductionExecutor.shared) {
          await self.takeOver(ifChangeCountIs: count, fromKeeper: keeper)
        }
      case .serve, .disown: break
      }
    }
  }

  /// Mirrors the new owner's offer into the pasteboard.
  private func startCapture(_ id: Int, owner: OwnerToken) {
    let pending = pasteboard.announceWrite()
    let ticket = echoes?.began(by: self)
    let task = Task(executorPreference: ProductionExecutor.shared) { [self] in
      defer { pending.finish() }
      defer { if let ticket { echoes?.ended(ticket) } }
      var capture: OfferCapture?
      var application: String?
      do {
        capture = try await withinTimeBudget { [self] () throws(BackendError) -> OfferCapture in
          let offer = try await backend.offer(of: role, stepTimeout: captureStepTimeout)
          // The offer of another owner than the one this capture is for — a newer one, or
          // this broker's own take — is not this owner's copy.
          if let offered = offer.owner, !offered.isSameOwner(as: owner) {
            throw .ownerChanged(role)
          }
          return await backend.capture(
            offer, targets: offer.essentialTargets, budget: byteBudget,
            stepTimeout: captureStepTimeout)
        }
        if capture?.entries.contains(where: { $0.failure == .ownerChanged(role) }) == true {
          // Replaced while it was read — by this broker serving another binding's copy, or
          // by an owner whose own capture follows: its partial copy is nobody's.
          logger.debug("\(role): its owner was replaced during the capture; dropped")
          capture = nil
        }
        if sources != nil { application = await backend.application(owning: owner) }
      } catch {
        logger.debug("could not mirror \(role): \(error)")
      }
      if let ticket {
        await echoes?.waitForEarlierCaptures(
          than: ticket, of: self, within: captureStepTimeout * 2)
      }
      perform(captureEnded(id, capture, owner: owner, application: application))
    }
    capturing.withLock { $0 = (id, task) }
  }

  /// Runs `capture` for at most ``captureTimeBudget`` on ``clock``; then cancels it, and
  /// returns what it returns once it has stopped (a capture cut short holds what it read).
  private func withinTimeBudget(
    _ capture: @escaping @Sendable () async throws(BackendError) -> OfferCapture
  ) async throws(BackendError) -> OfferCapture {
    let (clock, budget, logger, role) = (self.clock, captureTimeBudget, logger, role)
    let result = await withTaskGroup(of: Result<OfferCapture, BackendError>?.self) { group in
      group.addTask {
        do throws(BackendError) {
          return .success(try await capture())
        } catch {
          return .failure(error)
        }
      }
      group.addTask {
        guard (try? await clock.sleep(for: budget)) != nil else { return nil }
        logger.debug("\(role): the capture ran out of its time budget of \(budget)")
        return nil
      }
      var result: Result<OfferCapture, BackendError>?
      // Whichever ends first — the capture, or the budget — ends the other.
      while let next = await group.next() {
        if let next { result = next }
        group.cancelAll()
      }
      return result
    }
    guard let result else { throw .failed("the capture ended with nothing") }
    return try result.get()
  }

  /// Reports a capture's end; records it on the pasteboard when the policy says so, under
  /// the policy's lock.
  private func captureEnded(
    _ id: Int, _ capture: OfferCapture?, owner: OwnerToken, application: String?
  ) -> [MirrorPolicy.Action] {
    let item = capture.map { backend.item($0, readingTheRestWithin: captureStepTimeout) }
    guard let echoes else {
      return decide(id, capture, item, owner: owner, application: application)
    }
    return echoes.deciding { decide(id, capture, item, owner: owner, application: application) }
  }

  /// Asks the policy about a capture's end and writes it to the pasteboard when the policy
  /// says so, under the policy's lock.
  private func decide(
    _ id: Int, _ capture: OfferCapture?, _ item: PasteboardItem?, owner: OwnerToken,
    application: String?
  ) -> [MirrorPolicy.Action] {
    policy.withLock { policy -> [MirrorPolicy.Action] in
      let top = pasteboard.items.first
      let held = capture.flatMap { capture in
        top.flatMap { top in
          Self.holds(top, capture) || echoes?.isEcho(capture, of: top, in: self) == true
            ? ObjectIdentifier(top) : nil
        }
      }
      let actions = policy.captureEnded(
        id, capture, changeCount: pasteboard.changeCount, heldAs: held,
        partOfHeld: held != nil && capture.map { isKeeperRestore($0, of: top) } == true)
      guard actions.contains(.record(id: id)), let item, let capture else {
        if capture != nil, actions.isEmpty {
          logger.debug("\(role): the new owner offers what is already held")
        }
        return actions
      }
      sources?.note(item, source: application)
      let count = pasteboard.write([item])
      captureItem.withLock { $0 = CaptureItem(item: item, application: application) }
      echoes?.recorded(item, by: self)
      let failures = capture.entries.compactMap { entry in
        entry.failure.map { "\(entry.target.name): \($0)" }
      }
      logger.debug(
        "mirrored \(capture.entries.count) targets of \(role) (\(capture.byteCount) bytes) from \(owner)\(failures.isEmpty ? "" : "; not captured: " + failures.joined(separator: ", "))"
      )
      return policy.recorded(item: ObjectIdentifier(item), changeCount: count)
    }
  }

  /// Whether `capture` is the desktop's keeper restoring part of `top` after its owner went
  /// (GNOME's Mutter keeps one type): this backend can take the selection back from it, and
  /// `top` has more to serve than the restore.
  private func isKeeperRestore(_ capture: OfferCapture, of top: PasteboardItem?) -> Bool {
    guard capture.offer.isKeptByDesktop, backend.desktopKeeper != nil, let top else {
      return false
    }
    return top.representations.count > capture.captured.count
  }

  /// Whether `item` already holds what `capture` got: the capture is of Ferry's own copy
  /// (its marker among the owner's targets), or of the same bytes under the same types.
  static func holds(_ item: PasteboardItem, _ capture: OfferCapture) -> Bool {
    if capture.offer.advertised.contains(FerryMarker.name) { return true }
    guard capture.isComplete, !capture.entries.isEmpty else { return false }
    return capture.entries.allSatisfy { entry in
      guard case .data(let stored)? = item.storedPayload(for: entry.target.type) else {
        return false
      }
      return stored == entry.data
    }
  }

  /// The owner went away: serve the mirrored copy if nobody else has taken the selection.
  /// The copy is the one the pasteboard already holds, so its change count stays.
  ///
  /// Of the item written for a capture, what is kept is what is at hand: the captured bytes
  /// and the representations a paste read in full from the owner. A copy with nothing at
  /// hand — or any copy, when the budget is zero — is forgotten: the pasteboard is cleared.
  ///
  /// With `keeper`, the selection is the desktop keeper's restore of part of the copy
  /// (``DesktopClipboardKeeper``), and is taken from it only while it still holds it.
  private func takeOver(ifChangeCountIs count: Int, fromKeeper keeper: OwnerToken? = nil) async {
    guard let (capture, mirrored) = policy.withLock({ $0.mirror.map { ($0.capture, $0.item) } })
    else { return }
    let top = pasteboard.items.first
    let captured = captureItem.withLock { $0 }
    let item: PasteboardItem
    if keeper != nil, let top, top !== captured.item, ObjectIdentifier(top) == mirrored {
      // The mirror is an item the broker already served (an earlier takeover): all of it
      // that is at hand, not the capture alone.
      guard let atHand = top.itemAtHand() else { return }
      item = atHand
    } else if let top, top === captured.item {
      guard byteBudget > 0, let atHand = top.itemAtHand() else {
        // The keeper's part stays served: it is more than nothing.
        if keeper == nil { forget(ifChangeCountIs: count) }
        return
      }
      item = atHand
    } else {
      guard !capture.captured.isEmpty else { return }
      item = capture.item
    }
    do {
      // Never from a new owner, even one that takes the selection as the broker looks.
      if let keeper, let desktop = backend.desktopKeeper {
        try await desktop.replace(role, keptBy: keeper, with: item, onLost: {})
      } else {
        try await backend.own(role, item: item, onlyIfUnowned: true)
      }
    } catch {
      logger.debug("not taking over \(role): \(error)")
      return
    }
    let kept = policy.withLock { policy -> Bool in
      guard pasteboard.substitute([item], ifChangeCountIs: count) else { return false }
      policy.tookOver(item: ObjectIdentifier(item))
      return true
    }
    guard kept else {
      await backend.disown(role)  // Something newer was written meanwhile: serve that.
      return
    }
    logger.info(
      keeper == nil
        ? "the owner of \(role) went away; serving its copy"
        : "the owner of \(role) went away and the desktop kept part of its copy; serving all of it")
    // Bytes read past the budget were not at hand when the copy was recorded: record the
    // copy as kept. (A copy that was whole then is in the history already.)
    if let top, top === captured.item,
      item.representations.count > top.representations.filter({ !$0.isLazy }).count,
      let history
    {
      sources?.note(item, source: captured.application)
      await history.recordKept(item, replacing: top, from: pasteboard, changeCount: count)
    }
  }

  /// Clears the pasteboard of the copy whose owner went with nothing of it at hand, unless
  /// something newer was written: every reader finds it gone, as on the selection.
  private func forget(ifChangeCountIs count: Int) {
    let forgotten = policy.withLock { policy -> Bool in
      guard pasteboard.clearContents(ifChangeCountIs: count) != nil else { return false }
      policy.forgot()
      return true
    }
    if forgotten {
      logger.info("the owner of \(role) went away with its copy, which nobody read in full")
    }
  }

  /// Puts `item` — a copy from the history, when the broker starts — on the selection and
  /// the pasteboard, only if nobody owns the selection: an application that owns it keeps
  /// it, and the pasteboard stays as it was.
  ///
  /// - Returns: Whether the item was restored.
  func restore(_ item: PasteboardItem) async -> Bool {
    do {
      try await backend.own(role, item: item, onlyIfUnowned: true)
    } catch {
      logger.info("not restoring the history's newest copy: \(role) has an owner")
      return false
    }
    let count = policy.withLock { policy in
      policy.restored(item: ObjectIdentifier(item))
      return pasteboard.write([item])
    }
    published.publish(count)
    return true
  }

  /// Serves the pasteboard's copy on the selection of a display server connected again, as
  /// far as its bytes are at hand, if nobody owns the selection: what the broker held when
  /// the display went away is offered again, without a change — the pasteboard keeps its
  /// count, and an item that read from an owner of the lost connection is kept as far as it
  /// was read (as when an owner goes, ``PasteboardItem/itemAtHand()``). With a budget of zero
  /// (`PRIMARY`), only a copy held whole.
  ///
  /// - Returns: What came of it: the copy served, the selection owned by another program,
  ///   or nothing to serve (or a write meanwhile, which is followed and served as the
  ///   pasteboard's change).
  @discardableResult
  func resume() async -> Resumption {
    let count = pasteboard.changeCount
    guard let top = pasteboard.items.first, let item = top.itemAtHand(),
      byteBudget > 0 || item === top
    else { return .nothingServed }
    do {
      try await backend.own(role, item: item, onlyIfUnowned: true)
    } catch .ownershipRefused {
      logger.info("not serving the pasteboard's copy again: \(role) has an owner")
      return .selectionOwned
    } catch {
      logger.info("not serving the pasteboard's copy again: \(error)")
      return .nothingServed
    }
    let kept = policy.withLock { policy -> Bool in
      guard item === top || pasteboard.substitute([item], ifChangeCountIs: count) else {
        return false
      }
      policy.restored(item: ObjectIdentifier(item))
      return true
    }
    guard kept else { return .nothingServed }
    logger.info("serving the pasteboard's copy on \(role) again")
    return .served
  }

  /// What ``resume()`` came to.
  enum Resumption: Equatable {
    /// The pasteboard's copy is on the selection again.
    case served
    /// Another program owns the selection: its copy is what to mirror.
    case selectionOwned
    /// Nothing was put on the selection: no copy at hand, or a write came meanwhile.
    case nothingServed
  }

  /// Mirrors the selection's current owner, as if it had just taken the selection: on a
  /// connection made again, an owner that took it while the display was away (or as the
  /// broker connected) is not heard of as a change.
  private func mirrorCurrentOwner() async {
    guard let owner = try? await backend.owner(of: role) else { return }
    logger.debug("\(role): mirroring its owner on the new connection")
    perform(policy.withLock { $0.ownerChanged(owner) })
  }

  /// Waits for the capture in progress, if any, to end.
  private func captureInProgress() async {
    await capturing.withLock { $0?.task }?.value
  }

  /// Copies the clipboard for an application about to exit and takes it.
  ///
  /// Saving the copy the pasteboard already mirrors is not a change; saving an owner the
  /// binding had not captured yet is.
  func saveForExitingOwner(_ request: SaveRequest) async -> Bool {
    await captureInProgress()
    let owner = try? await backend.owner(of: role)
    guard let offer = try? await backend.offer(of: role, stepTimeout: captureStepTimeout) else {
      return false
    }
    let capture = await backend.capture(
      offer, targets: request.targets(in: offer), budget: byteBudget,
      stepTimeout: captureStepTimeout)
    guard !capture.captured.isEmpty else { return false }
    let item = capture.item
    if let owner { sources?.note(item, source: await backend.application(owning: owner)) }
    do {
      try await backend.own(role, item: item)
    } catch {
      return false
    }
    policy.withLock { policy in
      var count = pasteboard.changeCount
      let inPlace = policy.saveReplacesMirror(owner: owner, changeCount: count)
      if !(inPlace && pasteboard.substitute([item], ifChangeCountIs: count)) {
        count = pasteboard.write([item])
      }
      policy.saved(capture, item: ObjectIdentifier(item), changeCount: count)
    }
    logger.info("saved \(capture.captured.count) targets of \(role) for an exiting application")
    return true
  }
}

/// The item a binding last wrote for a capture, held weakly, and its owner's application.
struct CaptureItem: Sendable {
  weak var item: PasteboardItem?
  var application: String?
}
