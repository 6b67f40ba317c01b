extension X11Display {
  /// Takes the clipboard-manager role: owns `CLIPBOARD_MANAGER` and answers `SAVE_TARGETS`.
  ///
  /// When an application asks the manager to save the clipboard before it exits, `save` is
  /// called with the targets it asked for (`nil`: all of them). It should read them from the
  /// `CLIPBOARD` owner — which keeps serving while it waits — then take `CLIPBOARD` with
  /// ``own(_:item:onlyIfUnowned:onLost:)`` and return `true`. The application gets its answer after that,
  /// and exits. Return `false` to report failure.
  ///
  /// ```swift
  /// try await display.becomeClipboardManager { targets in
  ///   let item = await copyClipboard(targets)   // reads from the exiting owner
  ///   return (try? await display.own(.clipboard, item: item)) != nil
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - save: Copies the clipboard.
  ///   - onLost: Called once if another manager replaces this one.
  /// - Returns: `false` when another manager already holds the role (it is not taken from it).
  public func becomeClipboardManager(
    save: @escaping @Sendable (_ targets: [String]?) async -> Bool,
    onLost: @escaping @Sendable () -> Void = {}
  ) async throws -> Bool {
    try await loop.perform { session in
      session.manager.acquire(save: save, onLost: onLost)
    }
  }
}
