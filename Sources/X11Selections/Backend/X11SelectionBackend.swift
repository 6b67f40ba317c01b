import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

/// The X11 implementation of `SelectionBackend`: the ICCCM selections of one display,
/// through ``X11Display``.
///
/// Roles are selections: clipboard → `CLIPBOARD`, primary → `PRIMARY`, secondary →
/// `SECONDARY`, drag → `XdndSelection`. An owner token is the owner's window and the server
/// time it took the selection. The clipboard-manager hand-over is X11's `CLIPBOARD_MANAGER`
/// and `SAVE_TARGETS`.
///
/// ```swift
/// let backend = try X11SelectionBackend(displayName: ":0")
/// try await backend.own(.clipboard, item: item)
/// ```
public final class X11SelectionBackend: SelectionBackend {
  /// The display.
  public let display: X11Display

  /// Opens `displayName` (`nil`: `$DISPLAY`).
  ///
  /// - Throws: `BackendError.cannotConnect(_:)`.
  public init(displayName: String?) throws(BackendError) {
    do {
      display = try X11Display(name: displayName)
    } catch {
      throw BackendError(error, role: .clipboard)
    }
  }

  /// Wraps a display that is already open.
  public init(display: X11Display) {
    self.display = display
  }

  public var roles: Set<SelectionRole> { Set(SelectionRole.allCases) }

  public func own(
    _ role: SelectionRole, item: PasteboardItem, onlyIfUnowned: Bool,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) {
    do {
      try await display.own(
        role.selection, item: item, onlyIfUnowned: onlyIfUnowned, onLost: onLost)
    } catch {
      throw BackendError(error, role: role)
    }
  }

  public func disown(_ role: SelectionRole) async {
    await display.disown(role.selection)
  }

  public func owner(of role: SelectionRole) async throws(BackendError) -> OwnerToken? {
    do {
      let window = try await display.owner(of: role.selection)
      return window == .none ? nil : OwnerToken(window, time: .current)
    } catch {
      throw BackendError(error, role: role)
    }
  }

  public func ownerChanges(of roles: [SelectionRole]) -> AsyncStream<OwnerChange> {
    let changes = display.ownerChanges(of: roles.map(\.selection))
    return AsyncStream { continuation in
      let forwarding = Task {
        for await change in changes {
          guard let role = SelectionRole(change.selection) else { continue }
          let kind: OwnerChange.Kind
          switch change.kind {
          case .newOwner: kind = .newOwner
          case .windowDestroyed, .clientClosed: kind = .ownerGone
          // This process's disown gives the selection up. Another program's clear stays what
          // it always was on the seam, a new owner with nothing to offer: the broker mirrors
          // nothing and does not take the selection back, so a password manager's clear
          // stays cleared (an owner that exits is another matter: its copy is kept).
          case .cleared: kind = change.isOwnedByThisProcess ? .ownerGone : .newOwner
          }
          continuation.yield(
            OwnerChange(
              role: role, kind: kind,
              owner: OwnerToken(change.owner, time: change.time),
              isOwnedByThisProcess: change.isOwnedByThisProcess))
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in forwarding.cancel() }
    }
  }

  public func offer(of role: SelectionRole, stepTimeout: Duration) async throws(BackendError)
    -> OwnerOffer
  {
    do {
      return try await display.offer(of: role.selection, stepTimeout: stepTimeout)
    } catch {
      throw BackendError(error, role: role)
    }
  }

  public func capture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target], budget: Int, stepTimeout: Duration
  ) async -> OfferCapture {
    await display.capture(offer, targets: targets, budget: budget, stepTimeout: stepTimeout)
  }

  public func item(_ capture: OfferCapture, readingTheRestWithin stepTimeout: Duration)
    -> PasteboardItem
  {
    capture.item(readingTheRestFrom: display, stepTimeout: stepTimeout)
  }

  public func read(
    _ role: SelectionRole, target: String, into descriptor: Int32, stepTimeout: Duration
  ) async throws(BackendError) {
    do {
      _ = try await display.read(
        role.selection, target: target, into: .fileDescriptor(descriptor), stepTimeout: stepTimeout)
    } catch {
      throw BackendError(error, role: role)
    }
  }

  public func application(owning owner: OwnerToken) async -> String? {
    await display.application(owning: XWindow(rawValue: UInt(owner.owner)))
  }

  public var clipboardManager: (any ClipboardManagerHandOver)? {
    X11ClipboardManager(display: display)
  }

  public var desktopKeeper: (any DesktopClipboardKeeper)? {
    X11DesktopKeeper(display: display)
  }

  public func desktopName() async -> String? {
    await display.desktopName()
  }

  public func onConnectionLost(_ handler: @escaping @Sendable () -> Void) {
    display.onConnectionLost(handler)
  }

  public func close() {
    display.close()
  }
}
