extension XWindow {
  /// The events a client selects on a window, or asks a sent event to be delivered for.
  ///
  /// ```swift
  /// connection.selectInput(requestor, mask: [.propertyChange, .structureNotify])
  /// ```
  ///
  /// The raw values are Xlib's, from `<X11/X.h>`.
  package struct EventMask: OptionSet, Hashable, Sendable {
    /// The Xlib mask bits.
    package let rawValue: Int

    /// Wraps Xlib mask bits.
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Key presses. The corresponding Xlib constant is `KeyPressMask`.
    package static let keyPress = EventMask(rawValue: 1 << 0)
    /// Key releases. The corresponding Xlib constant is `KeyReleaseMask`.
    package static let keyRelease = EventMask(rawValue: 1 << 1)
    /// Pointer button presses. The corresponding Xlib constant is `ButtonPressMask`.
    package static let buttonPress = EventMask(rawValue: 1 << 2)
    /// Pointer button releases. The corresponding Xlib constant is `ButtonReleaseMask`.
    package static let buttonRelease = EventMask(rawValue: 1 << 3)
    /// Pointer motion, with or without a button held. The corresponding Xlib constant is
    /// `PointerMotionMask`.
    package static let pointerMotion = EventMask(rawValue: 1 << 6)
    /// Pointer motion while any button is held. The corresponding Xlib constant is
    /// `ButtonMotionMask`.
    package static let buttonMotion = EventMask(rawValue: 1 << 13)
    /// Parts of the window to redraw (`Expose`). The corresponding Xlib constant is
    /// `ExposureMask`.
    package static let exposure = EventMask(rawValue: 1 << 15)
    /// The window's own size, position and destruction (`ConfigureNotify`, `DestroyNotify`,
    /// …). The corresponding Xlib constant is `StructureNotifyMask`.
    package static let structureNotify = EventMask(rawValue: 1 << 17)
    /// Changes and deletions of the window's properties (`PropertyNotify`). The corresponding
    /// Xlib constant is `PropertyChangeMask`.
    package static let propertyChange = EventMask(rawValue: 1 << 22)
  }
}
