import SelectionBackendCore

/// The embedded display server's clipboard-manager hand-over: one manager at a time, asked
/// to save by ``EmbeddedSelectionBackend/peerAsksToSave(_:)``.
struct EmbeddedClipboardManager: ClipboardManagerHandOver {
  let state: EmbeddedDisplay

  func becomeClipboardManager(
    save: @escaping @Sendable (SaveRequest) async -> Bool, onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) -> Bool {
    state.withLock { state in
      guard state.manager == nil else { return false }
      state.manager = (save, onLost)
      return true
    }
  }
}
