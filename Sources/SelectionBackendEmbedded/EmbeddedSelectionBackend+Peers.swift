import FoundationEssentials
import SelectionBackendCore
import UniformTypeIdentifiers

extension EmbeddedSelectionBackend {
  /// A program copies: it takes `role` and offers `targets`, in order.
  ///
  /// - Parameters:
  ///   - concealed: It marks the copy as a secret.
  ///   - hangsOnTargets: It never answers the list of its targets.
  ///   - application: The program's name, as ``application(owning:)`` tells it.
  /// - Returns: The new owner's token.
  @discardableResult
  public func peerCopies(
    _ role: SelectionRole, _ targets: [EmbeddedPeerTarget], concealed: Bool = false,
    hangsOnTargets: Bool = false,
    application: String? = nil
  ) -> OwnerToken {
    take(
      role, targets, concealed: concealed, hangsOnTargets: hangsOnTargets,
      application: application, keptByDesktop: false)
  }

  /// The program owning `role` exits and the desktop's keeper takes its place with `kept`,
  /// the part of the copy it kept, as GNOME's Mutter does: no owner-gone is told, only a new
  /// owner whose offer ``SelectionBackendCore/OwnerOffer/isKeptByDesktop``.
  ///
  /// - Returns: The keeper's token.
  @discardableResult
  public func desktopKeeps(_ role: SelectionRole, _ kept: [EmbeddedPeerTarget]) -> OwnerToken {
    take(role, kept, concealed: false, hangsOnTargets: false, application: nil, keptByDesktop: true)
  }

  private func take(
    _ role: SelectionRole, _ targets: [EmbeddedPeerTarget], concealed: Bool,
    hangsOnTargets: Bool, application: String?, keptByDesktop: Bool
  ) -> OwnerToken {
    let (token, notices) = state.withLock { state in
      let token = state.nextToken()
      if keptByDesktop { state.keepers.insert(token) }
      let previous = state.owners.updateValue(
        .peer(targets: targets, concealed: concealed, hangsOnTargets: hangsOnTargets, token: token),
        forKey: role)
      state.applications[token] = application
      var notices = state.notices(
        OwnerChange(role: role, kind: .newOwner, owner: token, isOwnedByThisProcess: false))
      if case .broker(_, _, let lost)? = previous { notices.append(.lost(lost)) }
      return (token, notices)
    }
    notices.forEach { $0.deliver() }
    return token
  }

  /// The program owning `role` exits: the selection has no owner, and its watchers hear so.
  /// Nothing happens when the broker owns it.
  public func peerExits(_ role: SelectionRole) {
    let notices = state.withLock { state -> [EmbeddedDisplayState.Notice] in
      guard case .peer(_, _, _, let token)? = state.owners[role] else { return [] }
      state.owners[role] = nil
      return state.notices(
        OwnerChange(role: role, kind: .ownerGone, owner: token, isOwnedByThisProcess: false))
    }
    notices.forEach { $0.deliver() }
  }

  /// A program pastes `target` from whoever owns `role`.
  ///
  /// - Throws: ``BackendError``, as a read of the broker's own would.
  public func peerPastes(_ role: SelectionRole, _ target: String) async throws(BackendError) -> Data
  {
    guard let owner = state.withLock({ $0.owners[role] }) else { throw .noOwner(role) }
    guard let data = try await owner.answer(target, role: role).get() else {
      throw .timedOut("reading \(target)")
    }
    return data
  }

  /// The program owning the clipboard, about to exit, asks the clipboard manager to save
  /// `targets` (`nil`: all), as GTK does.
  ///
  /// - Returns: The manager's answer; `false` when there is no manager.
  public func peerAsksToSave(_ targets: [String]? = nil) async -> Bool {
    guard let save = state.withLock({ $0.manager?.save }) else { return false }
    let request =
      targets.map { names in
        SaveRequest { offer in offer.targets.filter { names.contains($0.name) } }
      } ?? .everything
    return await save(request)
  }

  /// A program asks the owner of `role` for its targets, as a paste menu does.
  ///
  /// - Returns: The targets' names in the owner's order (the broker's: its item's type
  ///   identifiers); `nil` when nobody owns the selection.
  public func peerListsTargets(_ role: SelectionRole) -> [String]? {
    state.withLock { $0.owners[role]?.offer(role: role).targets.map(\.name) }
  }

  /// Whether the broker owns `role` now.
  public func brokerOwns(_ role: SelectionRole) -> Bool {
    state.withLock { state in
      if case .broker? = state.owners[role] { return true }
      return false
    }
  }

  /// How many times the broker took `role`.
  public func ownCount(_ role: SelectionRole) -> Int { state.withLock { $0.ownCount[role] ?? 0 } }

  /// How many times `target` was read, by captures and pastes from the broker.
  public func readCount(_ target: String) -> Int { state.withLock { $0.reads[target] ?? 0 } }

  /// The connection to the display server is lost: the handlers run and the streams end.
  public func loseConnection() {
    let handlers = state.withLock { $0.lostHandlers }
    handlers.forEach { $0() }
    close()
  }
}

extension EmbeddedSelectionBackend {
  /// How many streams of owner changes are open: a test waits for its subject to subscribe.
  public var watcherCount: Int { state.withLock { $0.watchers.count } }

  /// The program name `application` gave for `owner`, as the backend reports it.
  public func owner(_ role: SelectionRole) -> OwnerToken? {
    state.withLock { $0.owners[role]?.token }
  }
}
