/// A display server's clipboard-manager hand-over: an application about to exit asks the
/// manager to copy the clipboard first, and waits for the answer (X11's `CLIPBOARD_MANAGER`
/// and `SAVE_TARGETS`, which GTK and Qt use). Wayland has no such step: data-control lets a
/// manager copy every change as it happens instead.
public protocol ClipboardManagerHandOver: Sendable {
  /// Takes the manager role, unless another manager holds it.
  ///
  /// `save` is called for each hand-over: it should read the wanted targets from the
  /// clipboard's owner — which keeps serving while it waits — take the clipboard, and return
  /// `true`. The application gets its answer after that, and exits.
  ///
  /// - Parameters:
  ///   - save: Copies the clipboard for the exiting application.
  ///   - onLost: Called once if another manager replaces this one.
  /// - Returns: `false` when another manager holds the role (it is not taken from it).
  func becomeClipboardManager(
    save: @escaping @Sendable (SaveRequest) async -> Bool, onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) -> Bool
}

/// What an exiting application asked the clipboard manager to save.
public struct SaveRequest: Sendable {
  private let resolve: @Sendable (OwnerOffer) -> [OwnerOffer.Target]

  /// Creates a request whose targets `resolve` picks from an offer.
  public init(resolve: @escaping @Sendable (OwnerOffer) -> [OwnerOffer.Target]) {
    self.resolve = resolve
  }

  /// Every essential target of the offer: what an application that names none asks for.
  public static let everything = SaveRequest { $0.essentialTargets }

  /// The targets to save from `offer`.
  public func targets(in offer: OwnerOffer) -> [OwnerOffer.Target] { resolve(offer) }
}
