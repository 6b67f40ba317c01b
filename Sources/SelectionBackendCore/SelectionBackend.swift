import Pasteboard

/// A display server's selections, as the broker and the command-line tools use them: the
/// seam between Ferry and X11 (or Wayland, or a test's embedded fake).
///
/// Every method answers for one ``SelectionRole``. Ownership is by item: the backend serves
/// the item's representations to whoever asks, converting on request. Reading is by offer
/// and capture: ``offer(of:stepTimeout:)`` lists the owner's typed targets, and
/// ``capture(_:targets:budget:stepTimeout:)`` reads them within a byte budget — a transfer it
/// starts it always finishes, so a capture never harms the owner's own transfers.
///
/// ```swift
/// let offer = try await backend.offer(of: .clipboard, stepTimeout: .seconds(2))
/// let capture = await backend.capture(offer, targets: offer.essentialTargets, budget: 64 << 20, stepTimeout: .seconds(2))
/// let item = backend.item(capture, readingTheRestWithin: .seconds(2))
/// ```
public protocol SelectionBackend: AnyObject, Sendable {
  /// The roles this display server has.
  var roles: Set<SelectionRole> { get }

  /// Takes `role` and serves `item` on it until another client takes it.
  ///
  /// - Parameters:
  ///   - role: The selection.
  ///   - item: What to serve.
  ///   - onlyIfUnowned: Take it only if nobody owns it; ``BackendError/ownershipRefused(_:)`` otherwise.
  ///   - onLost: Called once when another client takes the selection.
  func own(
    _ role: SelectionRole, item: PasteboardItem, onlyIfUnowned: Bool,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError)

  /// Gives `role` up if this process owns it.
  func disown(_ role: SelectionRole) async

  /// Who owns `role`; `nil` when nobody does.
  func owner(of role: SelectionRole) async throws(BackendError) -> OwnerToken?

  /// The owner changes of `roles`, this process's own included, until the stream is dropped.
  func ownerChanges(of roles: [SelectionRole]) -> AsyncStream<OwnerChange>

  /// What the owner of `role` offers.
  ///
  /// - Throws: ``BackendError/noOwner(_:)``, ``BackendError/timedOut(_:)``.
  func offer(of role: SelectionRole, stepTimeout: Duration) async throws(BackendError) -> OwnerOffer

  /// Reads `targets` of `offer` from its owner, at most `budget` bytes in all; what does not
  /// fit, or fails, is an entry without data and with the reason.
  func capture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target], budget: Int, stepTimeout: Duration
  ) async
    -> OfferCapture

  /// An item of the captured data that reads every other target from the owner on request,
  /// while it owns the selection. A read whose step times out fails with
  /// `PasteboardError.providerTimedOut`.
  ///
  /// A target read on request is written to a file of the item's spool as it arrives (the
  /// bytes in memory when they are few), never held whole in memory, and no file is left when
  /// the read fails; a concealed item's bytes, which never touch the disk, are read into
  /// memory.
  func item(_ capture: OfferCapture, readingTheRestWithin stepTimeout: Duration) -> PasteboardItem

  /// Streams the owner's `target` to `descriptor` as it arrives.
  func read(_ role: SelectionRole, target: String, into descriptor: Int32, stepTimeout: Duration)
    async throws(BackendError)

  /// The name of the program that owns the selection as `owner`, when the backend can tell.
  func application(owning owner: OwnerToken) async -> String?

  /// The clipboard-manager hand-over, where the display server has one (X11's
  /// `CLIPBOARD_MANAGER` and `SAVE_TARGETS`); `nil` elsewhere.
  var clipboardManager: (any ClipboardManagerHandOver)? { get }

  /// The way to take a selection back from the desktop's own keeper of a copy (Mutter's
  /// clipboard manager, on GNOME's Xwayland), where the display server has one; `nil`
  /// elsewhere.
  var desktopKeeper: (any DesktopClipboardKeeper)? { get }

  /// The desktop this display server belongs to, as status names it (`GNOME (Mutter) through
  /// Xwayland`), when the backend can tell; `nil` otherwise.
  func desktopName() async -> String?

  /// Calls `handler` once, if the connection to the display server is lost.
  func onConnectionLost(_ handler: @escaping @Sendable () -> Void)

  /// Why the connection to the display server ended, once it has, when the backend can say
  /// (Wayland: the compositor's error, an event that broke the protocol, the socket's end).
  var connectionFailure: String? { get }

  /// Closes the connection; the selections this process owns are given up.
  func close()
}

extension SelectionBackend {
  /// Nothing to say: the backend reports a lost connection by ``onConnectionLost(_:)`` alone.
  public var connectionFailure: String? { nil }

  /// None: the display server has no desktop keeper Ferry knows.
  public var desktopKeeper: (any DesktopClipboardKeeper)? { nil }

  /// Unknown.
  public func desktopName() async -> String? { nil }

  /// Takes `role` and serves `item` on it.
  public func own(_ role: SelectionRole, item: PasteboardItem, onlyIfUnowned: Bool = false)
    async throws(BackendError)
  {
    try await own(role, item: item, onlyIfUnowned: onlyIfUnowned, onLost: {})
  }

  /// Reads every target of `offer`, at most `budget` bytes in all.
  public func capture(_ offer: OwnerOffer, budget: Int, stepTimeout: Duration) async -> OfferCapture
  {
    await capture(offer, targets: offer.targets, budget: budget, stepTimeout: stepTimeout)
  }
}
