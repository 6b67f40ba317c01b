import SelectionBackendCore

/// X11's clipboard-manager hand-over: `CLIPBOARD_MANAGER` and `SAVE_TARGETS` (freedesktop's
/// clipboard-manager specification), which GTK and Qt applications use before they exit.
struct X11ClipboardManager: ClipboardManagerHandOver {
  let display: X11Display

  func becomeClipboardManager(
    save: @escaping @Sendable (SaveRequest) async -> Bool, onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) -> Bool {
    do {
      return try await display.becomeClipboardManager(
        save: { names in
          await save(
            SaveRequest { offer in
              guard let names else { return offer.essentialTargets }
              return offer.targets(named: names)
            })
        },
        onLost: onLost)
    } catch {
      throw BackendError(error, role: .clipboard)
    }
  }
}
