import FerrySystem
import Pasteboard
import SelectionBackendCore
import X11Core

/// The X11 side of a desktop's keeper (``DesktopClipboardKeeper``): GNOME's Mutter restoring
/// a copy on its own window (``MutterSelectionBridge``), taken back by the ownership's time.
struct X11DesktopKeeper: DesktopClipboardKeeper {
  let display: X11Display

  func replace(
    _ role: SelectionRole, keptBy keeper: OwnerToken, with item: PasteboardItem,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) {
    let ownership = SelectionOwnership(
      window: XWindow(rawValue: UInt(keeper.owner)),
      since: XTimestamp(rawValue: UInt(keeper.generation)))
    do {
      try await display.loop.perform { session in
        _ = try session.owner.replace(
          session.connection.atom(role.selection), keptBy: ownership, item: item, onLost: onLost)
      }
    } catch {
      throw BackendError(error, role: role)
    }
  }
}

extension X11Display {
  /// The desktop this display belongs to, for status: `GNOME (Mutter) through Xwayland`,
  /// `KDE (KWin) through Xwayland`, the window manager's own name elsewhere; `nil` when no
  /// manager announces itself.
  public func desktopName() async -> String? {
    let found = try? await loop.perform { session -> (String?, Bool) in
      (session.windowManagerName, session.connection.isXwayland)
    }
    guard let (manager, serverIsXwayland) = found, let manager else { return nil }
    // Mutter interns Xwayland's atom on Xorg too (`atomnames.h`): an Xwayland that is one
    // is also in a Wayland session.
    let isXwayland =
      serverIsXwayland && !(ProcessEnvironment.value(of: "WAYLAND_DISPLAY") ?? "").isEmpty
    let desktop: String
    switch manager {
    case _ where MutterSelectionBridge.isMutter(windowManager: manager): desktop = "GNOME (Mutter)"
    case "KWin": desktop = "KDE (KWin)"
    default: desktop = manager
    }
    return isXwayland ? "\(desktop) through Xwayland" : desktop
  }
}
