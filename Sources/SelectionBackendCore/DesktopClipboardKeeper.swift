import Pasteboard

/// A desktop's own keeper of the clipboard, as a display server lets a broker deal with it.
///
/// GNOME's compositor keeps one type of each copy (text, or an image) and, when the copy's
/// owner goes away, owns the clipboard with that type alone. A broker that captured the copy
/// whole sees that restore as an offer that ``OwnerOffer/isKeptByDesktop`` and serves the
/// whole copy instead, through this: the keeper is never fought (it acts only when a
/// selection loses its owner), and a newer copy is never overtaken.
public protocol DesktopClipboardKeeper: Sendable {
  /// Takes `role` from the keeper's restore `keeper` and serves `item` on it, only while that
  /// restore still owns it: a copy made since, even on the keeper's own window, keeps it.
  ///
  /// - Throws: ``BackendError/ownershipRefused(_:)`` when the selection changed since.
  func replace(
    _ role: SelectionRole, keptBy keeper: OwnerToken, with item: PasteboardItem,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError)
}
