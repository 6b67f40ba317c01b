import UniformTypeIdentifiers

extension UTType {
  /// `org.nspasteboard.ConcealedType`: the item is sensitive.
  public static let concealedMarker = UTType(exportedAs: "org.nspasteboard.ConcealedType")
  /// `org.nspasteboard.TransientType`: the item is temporary.
  public static let transientMarker = UTType(exportedAs: "org.nspasteboard.TransientType")
  /// KDE's `x-kde-passwordManagerHint`; the value `secret` marks the item sensitive.
  public static let passwordManagerHint = UTType(exportedAs: "org.kde.password-manager-hint")
  /// `text/uri-list`: URIs, one per line, separated by CR LF.
  public static let uriList = UTType(exportedAs: "org.freedesktop.uri-list")
  /// `x-special/gnome-copied-files`: `copy` or `cut`, then one URI per line.
  public static let gnomeCopiedFiles = UTType(exportedAs: "org.gnome.copied-files")
  /// Latin-1 text, the X11 `STRING` target.
  public static let latin1PlainText = UTType(exportedAs: "org.x.string")
}
