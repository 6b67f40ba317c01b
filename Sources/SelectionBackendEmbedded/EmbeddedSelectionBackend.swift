import FerrySystem
import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

/// A display server in memory, for tests: the broker's side is the ``SelectionBackend`` it
/// implements, and the test plays the other programs — a peer copies, exits, asks the
/// clipboard manager to save — with every timeout measured on the clock it is given (a
/// manual clock makes them instant and exact). The NIOEmbedded of this house.
///
/// ```swift
/// let clock = ManualClock()
/// let backend = EmbeddedSelectionBackend(clock: clock)
/// let owner = backend.peerCopies(.clipboard, [.text("hello")], application: "gedit")
/// backend.peerExits(.clipboard)
/// ```
///
/// Like X11, owning is by item and taking a selection tells the previous owner; an owner
/// that hangs on a target costs a read its step timeout, and a capture ends at the first
/// timeout.
public final class EmbeddedSelectionBackend<C: Clock>: SelectionBackend, Sendable
where C.Duration == Duration {
  private let clock: C
  let state = EmbeddedDisplay()

  /// A display server with no owners, timing on `clock`.
  public init(clock: C) {
    self.clock = clock
  }

  public var roles: Set<SelectionRole> { [.clipboard, .primary, .secondary] }

  // MARK: The broker's side

  public func own(
    _ role: SelectionRole, item: PasteboardItem, onlyIfUnowned: Bool,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) {
    guard roles.contains(role) else { throw .unsupported(role) }
    let result = state.withLock { state -> Result<[EmbeddedDisplayState.Notice], BackendError> in
      if onlyIfUnowned, state.owners[role] != nil { return .failure(.ownershipRefused(role)) }
      state.ownCount[role, default: 0] += 1
      let token = state.nextToken()
      let previous = state.owners.updateValue(
        .broker(item: item, token: token, onLost: onLost), forKey: role)
      var notices = state.notices(
        OwnerChange(role: role, kind: .newOwner, owner: token, isOwnedByThisProcess: true))
      if case .broker(let oldItem, _, let lost)? = previous, oldItem !== item {
        notices.append(.lost(lost))
      }
      return .success(notices)
    }
    try result.get().forEach { $0.deliver() }
  }

  public func disown(_ role: SelectionRole) async {
    let notices = state.withLock { state -> [EmbeddedDisplayState.Notice] in
      guard case .broker(_, let token, _)? = state.owners[role] else { return [] }
      state.owners[role] = nil
      return state.notices(
        OwnerChange(role: role, kind: .ownerGone, owner: token, isOwnedByThisProcess: true))
    }
    notices.forEach { $0.deliver() }
  }

  public func owner(of role: SelectionRole) async throws(BackendError) -> OwnerToken? {
    state.withLock { $0.owners[role]?.token }
  }

  public func ownerChanges(of roles: [SelectionRole]) -> AsyncStream<OwnerChange> {
    let (stream, continuation) = AsyncStream<OwnerChange>.makeStream()
    let id = state.withLock { state in
      let id = state.nextToken().owner
      state.watchers[id] = (Set(roles), continuation)
      return id
    }
    continuation.onTermination = { [state] _ in
      state.withLock { _ = $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  public func offer(of role: SelectionRole, stepTimeout: Duration) async throws(BackendError)
    -> OwnerOffer
  {
    guard roles.contains(role) else { throw .unsupported(role) }
    guard
      let (owner, isKeeper) = state.withLock({ state in
        state.owners[role].map { ($0, state.keepers.contains($0.token)) }
      })
    else { throw .noOwner(role) }
    if owner.hangsOnTargets {
      try await waitOut(stepTimeout, step: "waiting for the owner of \(role) to list its targets")
    }
    var offer = owner.offer(role: role)
    offer.isKeptByDesktop = isKeeper
    return offer
  }

  public func capture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target], budget: Int, stepTimeout: Duration
  ) async -> OfferCapture {
    await OfferCapture.targetByTarget(offer, targets: targets, budget: budget) {
      (role, target, limit) async throws(BackendError) -> Data in
      try await self.read(role, target: target, stepTimeout: stepTimeout, limit: limit)
    }
  }

  public func item(_ capture: OfferCapture, readingTheRestWithin stepTimeout: Duration)
    -> PasteboardItem
  {
    capture.item(
      readingTheRestWith: { (role, target, limit) async throws(BackendError) -> Data in
        try await self.read(role, target: target, stepTimeout: stepTimeout, limit: limit)
      },
      streamingWith: { (role, target, descriptor) async throws(BackendError) in
        try await self.read(role, target: target, into: descriptor, stepTimeout: stepTimeout)
      }, stepTimeout: stepTimeout)
  }

  public func read(
    _ role: SelectionRole, target: String, into descriptor: Int32, stepTimeout: Duration
  ) async throws(BackendError) {
    let data = try await read(role, target: target, stepTimeout: stepTimeout, limit: .max)
    do {
      try data.withUnsafeBytes { try FileDescriptor(rawValue: descriptor).writeAll(from: $0) }
    } catch {
      throw .failed("cannot write the data: \(error)")
    }
  }

  public func application(owning owner: OwnerToken) async -> String? {
    state.withLock { $0.applications[owner] }
  }

  public var clipboardManager: (any ClipboardManagerHandOver)? {
    EmbeddedClipboardManager(state: state)
  }

  public var desktopKeeper: (any DesktopClipboardKeeper)? {
    EmbeddedDesktopKeeper(state: state)
  }

  public func onConnectionLost(_ handler: @escaping @Sendable () -> Void) {
    state.withLock { $0.lostHandlers.append(handler) }
  }

  /// Gives up the selections the broker owns (their `onLost` is not called: nobody took
  /// them) and ends the streams of owner changes.
  public func close() {
    let watchers = state.withLock { state in
      defer { state.watchers = [:] }
      for (role, owner) in state.owners {
        if case .broker = owner { state.owners[role] = nil }
      }
      return state.watchers.values.map(\.continuation)
    }
    watchers.forEach { $0.finish() }
  }

  /// Reads one target from the current owner of `role`.
  private func read(_ role: SelectionRole, target: String, stepTimeout: Duration, limit: Int)
    async throws(BackendError) -> Data
  {
    guard roles.contains(role) else { throw .unsupported(role) }
    let owner = state.withLock { state in
      state.reads[target, default: 0] += 1
      return state.owners[role]
    }
    guard let owner else { throw .noOwner(role) }
    guard let data = try await owner.answer(target, role: role).get() else {
      try await waitOut(stepTimeout, step: "waiting for the owner of \(role) to answer \(target)")
    }
    guard data.count <= limit else { throw .tooLarge(limit: limit) }
    return data
  }

  /// Waits a step timeout out on the clock, then fails with it.
  private func waitOut(_ stepTimeout: Duration, step: String) async throws(BackendError) -> Never {
    do {
      try await clock.sleep(for: stepTimeout)
    } catch {
      throw .failed("cancelled \(step)")
    }
    throw .timedOut(step)
  }
}
