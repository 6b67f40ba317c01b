import Pasteboard
import SelectionBackendCore

/// The embedded display server's desktop keeper: the broker takes a selection back from a
/// keeper's restore (``EmbeddedSelectionBackend/desktopKeeps(_:_:)``) only while that restore
/// still owns it.
struct EmbeddedDesktopKeeper: DesktopClipboardKeeper {
  let state: EmbeddedDisplay

  func replace(
    _ role: SelectionRole, keptBy keeper: OwnerToken, with item: PasteboardItem,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) {
    let notices = state.withLock { state -> [EmbeddedDisplayState.Notice]? in
      guard state.owners[role]?.token == keeper else { return nil }
      state.ownCount[role, default: 0] += 1
      let token = state.nextToken()
      state.owners[role] = .broker(item: item, token: token, onLost: onLost)
      return state.notices(
        OwnerChange(role: role, kind: .newOwner, owner: token, isOwnedByThisProcess: true))
    }
    guard let notices else { throw .ownershipRefused(role) }
    notices.forEach { $0.deliver() }
  }
}
