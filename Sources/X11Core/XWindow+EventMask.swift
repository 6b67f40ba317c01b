extension XWindow {
  /// The events a client selects on a window, or asks a sent event to be delivered for.
  ///
  /// ```swift
  /// connection.selectInput(requestor, mask: [.propertyChange, .structureNotify])
  /// ```
  ///
  /// The raw values are Xlib's, from `<X11/X.h>`.
  public struct EventMask: OptionSet, Hashable, Sendable {
    /// The Xlib mask bits.
    public let rawValue: Int

    /// Wraps Xlib mask bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Key presses. The corresponding Xlib constant is `KeyPressMask`.
    public static let keyPress = EventMask(rawValue: 1 << 0)
    /// Key releases. The corresponding Xlib constant is `KeyReleaseMask`.
    public static let keyRelease = EventMask(rawValue: 1 << 1)
    /// Pointer button presses. The corresponding Xlib constant is `ButtonPressMask`.
    public static let buttonPress = EventMask(rawValue: 1 << 2)
    /// Pointer button releases. The corresponding Xlib constant is `ButtonReleaseMask`.
    public static let buttonRelease = EventMask(rawValue: 1 << 3)
    /// Pointer motion, with or without a button held. The corresponding Xlib constant is
    /// `PointerMotionMask`.
    public static let pointerMotion = EventMask(rawValue: 1 << 6)
    /// Pointer motion while any button is held. The corresponding Xlib constant is
    /// `ButtonMotionMask`.
    public static let buttonMotion = EventMask(rawValue: 1 << 13)
    /// Parts of the window to redraw (`Expose`). The corresponding Xlib constant is
    /// `ExposureMask`.
    public static let exposure = EventMask(rawValue: 1 << 15)
    /// The window's own size, position and destruction (`ConfigureNotify`, `DestroyNotify`,
    /// …). The corresponding Xlib constant is `StructureNotifyMask`.
    public static let structureNotify = EventMask(rawValue: 1 << 17)
    /// Changes and deletions of the window's properties (`PropertyNotify`). The corresponding
    /// Xlib constant is `PropertyChangeMask`.
    public static let propertyChange = EventMask(rawValue: 1 << 22)
  }
}
