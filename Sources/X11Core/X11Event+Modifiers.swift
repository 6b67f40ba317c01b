extension X11Event {
  /// The modifier keys and pointer buttons held during a pointer or key event: the `state`
  /// field of Xlib's event.
  ///
  /// ```swift
  /// if pointer.state.contains(.shift) { … }   // Shift held: the drag asks for a move
  /// ```
  ///
  /// The raw values are Xlib's, from `<X11/X.h>`.
  public struct Modifiers: OptionSet, Hashable, Sendable {
    /// The Xlib state bits.
    public let rawValue: UInt32

    /// Wraps Xlib state bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Shift. The corresponding Xlib constant is `ShiftMask`.
    public static let shift = Modifiers(rawValue: 1 << 0)
    /// Caps Lock. The corresponding Xlib constant is `LockMask`.
    public static let lock = Modifiers(rawValue: 1 << 1)
    /// Control. The corresponding Xlib constant is `ControlMask`.
    public static let control = Modifiers(rawValue: 1 << 2)
    /// The first modifier beyond those, usually Alt. The corresponding Xlib constant is
    /// `Mod1Mask`.
    public static let mod1 = Modifiers(rawValue: 1 << 3)
    /// The first (left) pointer button. The corresponding Xlib constant is `Button1Mask`.
    public static let button1 = Modifiers(rawValue: 1 << 8)
  }
}
